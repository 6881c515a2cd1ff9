/** Checks of a chosen file before it is uploaded (the server checks again). */

export const MB = 1024 * 1024;

export const IMAGE_REQUIRED = "Пожалуйста, выберите файл изображения";
export const IMAGE_TOO_LARGE = "Размер файла не должен превышать 5MB";
export const HERO_IMAGE_REQUIRED = "Выберите изображение (JPG, PNG, GIF)";
export const FAVICON_TOO_LARGE = "Размер файла не должен превышать 1MB";
export const FAVICON_TYPE = "Выберите иконку: ICO, PNG, JPG или GIF";
export const SVG_REFUSED = "SVG не поддерживается: загрузите иконку ICO или PNG";
export const SELECTION_BANNER_REQUIRED = "Пожалуйста, выберите изображение";

/** The favicon picker's `accept`: SVG is refused by the server (a script can
 * hide in it). */
export const FAVICON_ACCEPT =
  ".ico,.png,.jpg,.jpeg,.gif,image/x-icon,image/vnd.microsoft.icon,image/png,image/jpeg,image/gif";

interface FileLike {
  name: string;
  type: string;
  size: number;
}

/** A picture of at most 5 MB; the message for the hero banner differs. */
export function checkImage(file: FileLike, notImage = IMAGE_REQUIRED): string | null {
  if (!file.type.startsWith("image/")) return notImage;
  if (file.size > 5 * MB) return IMAGE_TOO_LARGE;
  return null;
}

/** The hero (home) banner: JPG, PNG or GIF (or another picture the server
 * can read), at most 5 MB. */
export function checkHeroImage(file: FileLike): string | null {
  return checkImage(file, HERO_IMAGE_REQUIRED);
}

/** The favicon: ICO, PNG, JPG or GIF of at most 1 MB. */
export function checkFavicon(file: FileLike): string | null {
  const ext = file.name.toLowerCase().split(".").pop() ?? "";
  if (ext === "svg" || file.type === "image/svg+xml") return SVG_REFUSED;
  if (!["ico", "png", "jpg", "jpeg", "gif"].includes(ext)) return FAVICON_TYPE;
  if (file.size > MB) return FAVICON_TOO_LARGE;
  return null;
}
