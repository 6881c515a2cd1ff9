/** Admin page banners: six pages, each with a desktop and a mobile banner
 * (upload, preview, remove) and, when the banner is an ad, its mark
 * (advertiser and erid); "save all" sends what changed, "cancel" leaves
 * without saving (asking first when something changed). */
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { apiPut } from "../../api/client";
import { useCan } from "../auth";
import { AdFieldset } from "../components/AdFieldset";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import {
  ADVERTISER_HINTS,
  type BannerAds,
  type BannerMark,
  bannerAdsChanged,
  bannerAdsForm,
  bannerAdsPayload,
  bannerAdsProblems,
} from "../lib/ads";
import {
  BANNER_SECTIONS,
  type Banners,
  changedBanners,
  PUBLIC_SETTINGS,
  pickBanners,
  RECOMMENDED_BANNER,
  RECOMMENDED_MOBILE_BANNER,
} from "../lib/banners";
import type { AdminSettings } from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

const SETTINGS = "/api/admin/settings";

export default function BannersScreen() {
  const url = useCan("settings") ? SETTINGS : PUBLIC_SETTINGS;
  const settings = useAdminQuery<Banners>(url, { refetchOnWindowFocus: false });
  const [loaded, setLoaded] = useState<Banners | null>(null);
  const [current, setCurrent] = useState<Banners | null>(null);
  const [loadedAds, setLoadedAds] = useState<BannerAds>({});
  const [ads, setAds] = useState<BannerAds>({});
  // Shown after a save was tried: "homeBanner.erid" → the message.
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [uploads, setUploads] = useState(0);
  const [leaving, setLeaving] = useState(false);
  const [, navigate] = useLocation();

  const data = settings.data;
  // Filled once; later refetches never undo the admin's unsaved choices (a
  // save refills it from the server's answer).
  useEffect(() => {
    if (!data || current) return;
    const fresh = pickBanners(data);
    setLoaded(fresh);
    setCurrent(fresh);
    setLoadedAds(bannerAdsForm(data));
    setAds(bannerAdsForm(data));
  }, [data, current]);

  const patch: Partial<Banners> & { bannerAds?: BannerAds } =
    loaded && current ? changedBanners(loaded, current) : {};
  // The marks go only when they changed, and then all of them (a page left
  // out is unmarked).
  if (bannerAdsChanged(loadedAds, ads)) patch.bannerAds = bannerAdsPayload(ads);
  const dirty = Object.keys(patch).length > 0;
  const save = useAdminMutation((p: typeof patch) => apiPut<AdminSettings>("/api/settings", p), {
    success: "Баннеры обновлены",
    failure: "Не удалось обновить баннеры",
    onSuccess: (saved) => {
      const fresh = pickBanners(saved);
      setLoaded(fresh);
      setCurrent(fresh);
      setLoadedAds(bannerAdsForm(saved));
      setAds(bannerAdsForm(saved));
    },
  });
  const setMark = (key: string, part: keyof BannerMark, e: InputEvent) => {
    const { value } = e.currentTarget as HTMLInputElement;
    setAds((a) => ({
      ...a,
      [key]: { ...(a[key] ?? { erid: "", advertiser: "" }), [part]: value },
    }));
    setProblems(({ [`${key}.${part}`]: _, ...rest }) => rest);
  };

  return (
    <AdminPage title="Баннеры страниц">
      {!current ? (
        settings.isError ? (
          <ErrorPanel
            error={settings.error}
            title="Не удалось загрузить баннеры"
            url={url}
            onRetry={() => void settings.refetch()}
          />
        ) : (
          <SkeletonCards count={6} label="Загрузка баннеров…" />
        )
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const found = bannerAdsProblems(ads);
            setProblems(found);
            const first = Object.keys(found)[0];
            if (first) {
              document.getElementById(`ad-${first.replace(".", "-")}`)?.focus();
              return;
            }
            if (dirty) save.mutate(patch);
          }}
        >
          <div class="banner-sections">
            {BANNER_SECTIONS.map((s) => (
              <section
                key={s.key}
                class="admin-card banner-section"
                aria-labelledby={`banner-${s.key}`}
                data-testid={`banner-${s.key}`}
              >
                <h2 id={`banner-${s.key}`} class="admin-card-title">
                  {s.title}{" "}
                  <small>
                    <a href={s.page} target="_blank" rel="noopener noreferrer">
                      Открыть страницу
                    </a>
                  </small>
                </h2>
                <div class="form-grid">
                  <ImageUpload
                    label={`${s.title}: баннер для компьютера`}
                    value={current[s.desktop]}
                    onChange={(url) => setCurrent((c) => c && { ...c, [s.desktop]: url })}
                    hint={RECOMMENDED_BANNER}
                    onBusyChange={(b) => setUploads((n) => n + (b ? 1 : -1))}
                  />
                  <ImageUpload
                    label={`${s.title}: баннер для телефона`}
                    value={current[s.mobile]}
                    onChange={(url) => setCurrent((c) => c && { ...c, [s.mobile]: url })}
                    hint={RECOMMENDED_MOBILE_BANNER}
                    onBusyChange={(b) => setUploads((n) => n + (b ? 1 : -1))}
                  />
                </div>
                <AdFieldset
                  id={`ad-${s.desktop}`}
                  advertiser={{
                    value: ads[s.desktop]?.advertiser ?? "",
                    onInput: (e: InputEvent) => setMark(s.desktop, "advertiser", e),
                  }}
                  erid={{
                    value: ads[s.desktop]?.erid ?? "",
                    onInput: (e: InputEvent) => setMark(s.desktop, "erid", e),
                  }}
                  errors={{
                    adAdvertiser: problems[`${s.desktop}.advertiser`],
                    adErid: problems[`${s.desktop}.erid`],
                  }}
                  advertiserHint={ADVERTISER_HINTS.banner}
                />
              </section>
            ))}
          </div>
          <div class="form-actions sticky-actions">
            <button
              type="submit"
              aria-busy={save.isPending || undefined}
              disabled={!dirty || save.isPending || uploads > 0}
            >
              Сохранить все
            </button>
            <Link
              href="/"
              onClick={(e: MouseEvent) => {
                if (dirty) {
                  e.preventDefault();
                  setLeaving(true);
                }
              }}
            >
              Отмена
            </Link>
            {dirty && <span class="muted">Есть несохранённые изменения</span>}
          </div>
        </form>
      )}
      <ConfirmDialog
        open={leaving}
        title="Уйти без сохранения?"
        message="Выбранные баннеры не будут сохранены."
        confirmLabel="Уйти"
        cancelLabel="Остаться"
        onConfirm={() => {
          setLeaving(false);
          navigate("/");
        }}
        onCancel={() => setLeaving(false)}
      />
    </AdminPage>
  );
}
