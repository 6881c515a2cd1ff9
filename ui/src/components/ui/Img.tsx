import { srcsetOf } from "../../lib/images";

interface Props {
  src: string;
  alt: string;
  sizes: string;
  width: number;
  height: number;
  /** The first screen's largest image: loaded at once, first. */
  priority?: boolean;
  /** Decoration (a logo): fetched after the page's own pictures. */
  low?: boolean;
  class?: string;
}

/** A picture from the media store with its width variants. */
export function Img({ src, alt, sizes, width, height, priority, low, class: className }: Props) {
  const srcset = srcsetOf(src);
  return (
    <img
      src={src}
      srcset={srcset}
      sizes={srcset ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "sync" : "async"}
      fetchpriority={priority ? "high" : low ? "low" : "auto"}
      class={className}
    />
  );
}
