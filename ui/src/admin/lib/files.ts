/** The upload rules of the settings screens, for the single-image widget
 * (its checks: ../uploads.ts; the server checks again). */
import { MB, type SingleRules } from "../uploads";

export const HERO_IMAGE_REQUIRED = "Выберите изображение (JPG, PNG, GIF)";
export const FAVICON_TOO_LARGE = "Размер файла не должен превышать 1MB";
export const SELECTION_BANNER_REQUIRED = "Пожалуйста, выберите изображение";

/** The home page's hero banner: a picture of at most 5 MB. */
export const HERO_RULES: SingleRules = { notImageMessage: HERO_IMAGE_REQUIRED };

/** The favicon: ICO, PNG, JPG or GIF of at most 1 MB. SVG is refused by the
 * server (a script can hide in it), so the picker does not offer it. */
export const FAVICON_RULES: SingleRules = {
  maxBytes: MB,
  tooBigMessage: FAVICON_TOO_LARGE,
  extensions: ["ico", "png", "jpg", "jpeg", "gif"],
};

export const FAVICON_ACCEPT =
  ".ico,.png,.jpg,.jpeg,.gif,image/x-icon,image/vnd.microsoft.icon,image/png,image/jpeg,image/gif";
