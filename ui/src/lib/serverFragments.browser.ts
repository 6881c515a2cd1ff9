/** lib/serverFragments.tsx as the browser's build has it (vite.config.ts,
 * `browserFragments`): there a fragment the server draws once is its
 * component itself, and no key is ever made, so the wrappers, the keys'
 * digests and their code stay out of the public pages' JavaScript (and a
 * card hydrates without a wrapper component around it). Same names, same
 * types as the server's module. */
import type { ComponentType } from "preact";
import type {
  drawnOnceOnServer as serverDrawnOnce,
  drawnOnceWithLinks as serverDrawnWithLinks,
  joinedOnServer as serverJoined,
} from "./serverFragments";

export type { DrawnOnce, FirstPicture, FragmentStore, Href } from "./serverFragments";

export const drawnOnceOnServer: typeof serverDrawnOnce = <P extends object>(
  _name: string,
  Component: ComponentType<P>,
) => Component;

export const drawnOnceWithLinks: typeof serverDrawnWithLinks = (_name, Component) => Component;

export const joinedOnServer: typeof serverJoined = (Component) => Component;

/** Keys are made on the server only. */
export const fingerprint = (_value: unknown): string => "";
export const propsKey = (_props: object): string => "";
