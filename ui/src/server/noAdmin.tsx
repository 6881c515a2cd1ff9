/** The server build's stand-in for the admin panel, which is never drawn on
 * the server (see vite.server.config.ts). */
export default function AdminApp() {
  return null;
}
