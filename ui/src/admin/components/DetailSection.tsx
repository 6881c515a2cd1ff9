/** A titled part of a lead's details (comments, notifications), busy while
 * its list loads. */
import { type ReactNode, useId } from "react";

export function DetailSection({
  title,
  class: className,
  testId,
  busy,
  children,
}: {
  title: string;
  class?: string;
  testId: string;
  busy: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      class={`detail-section${className ? ` ${className}` : ""}`}
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      data-testid={testId}
    >
      <h3 id={titleId}>{title}</h3>
      {children}
    </section>
  );
}
