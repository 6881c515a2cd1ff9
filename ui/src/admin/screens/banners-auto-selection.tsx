/** The background picture of the car-selection page (/auto-selection):
 * upload, preview, save. */
import { useEffect, useState } from "react";
import { apiPut } from "../../api/client";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { type Banners, PUBLIC_SETTINGS } from "../lib/banners";
import { SELECTION_BANNER_REQUIRED } from "../lib/files";
import type { AdminSettings } from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

const SETTINGS = "/api/admin/settings";

export default function AutoSelectionBannerScreen() {
  // A role without the other settings (an editor) reads the banner as the
  // site shows it.
  const url = useCan("settings") ? SETTINGS : PUBLIC_SETTINGS;
  const settings = useAdminQuery<Pick<Banners, "autoSelectionBanner">>(url, {
    refetchOnWindowFocus: false,
  });
  const [image, setImage] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const saved = settings.data?.autoSelectionBanner ?? "";
  useEffect(() => {
    if (settings.data && image === null) setImage(settings.data.autoSelectionBanner);
  }, [settings.data, image]);

  const save = useAdminMutation(
    (url: string) => apiPut<AdminSettings>("/api/settings", { autoSelectionBanner: url }),
    {
      success: "Баннер обновлен",
      failure: "Не удалось обновить баннер",
      onSuccess: (s) => setImage(s.autoSelectionBanner),
    },
  );

  return (
    <AdminPage title="Баннер подбора авто">
      {image === null ? (
        settings.isError ? (
          <ErrorPanel
            error={settings.error}
            title="Не удалось загрузить настройки"
            url={url}
            onRetry={() => void settings.refetch()}
          />
        ) : (
          <SkeletonCards count={1} />
        )
      ) : (
        <form
          class="admin-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!image) {
              setProblem(SELECTION_BANNER_REQUIRED);
              return;
            }
            setProblem(null);
            save.mutate(image);
          }}
        >
          <p>
            Фон страницы <a href="/auto-selection">«Подбор авто»</a>.
          </p>
          <ImageUpload
            label="Фоновое изображение"
            required
            value={image}
            onChange={(url) => {
              setImage(url);
              if (url) setProblem(null);
            }}
            error={problem}
            hint="Рекомендуемый размер: 1600×800"
            onBusyChange={setUploading}
          />
          <div class="form-actions">
            <button
              type="submit"
              aria-busy={save.isPending || undefined}
              disabled={save.isPending || uploading}
            >
              Сохранить
            </button>
            {image !== saved && <span class="muted">Есть несохранённые изменения</span>}
          </div>
        </form>
      )}
    </AdminPage>
  );
}
