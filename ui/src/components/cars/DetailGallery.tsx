import { useState } from "react";
import { CarPlaceholder } from "../ui/CarPlaceholder";
import { Img } from "../ui/Img";
import { GalleryArrows } from "./GalleryArrows";

/** The car page's main picture with its thumbnails. */
export function DetailGallery({ images, alt }: { images: string[]; alt: string }) {
  const [index, setIndex] = useState(0);
  if (images.length === 0) {
    return (
      <div class="detail-main detail-empty" role="img" aria-label={`${alt}: нет фото`}>
        <CarPlaceholder />
      </div>
    );
  }
  const count = images.length;
  const step = (d: number) => setIndex((i) => (i + d + count) % count);
  return (
    <div class="detail-gallery" data-testid="detail-gallery" data-index={index}>
      <div class="detail-main">
        <Img
          src={images[index]}
          alt={`${alt}, фото ${index + 1} из ${count}`}
          sizes="(max-width: 1024px) 100vw, 60vw"
          width={800}
          height={600}
          priority={index === 0}
        />
        {count > 1 && <GalleryArrows step={step} />}
      </div>
      {count > 1 && (
        <div class="thumbs">
          {images.map((image, i) => (
            <button
              type="button"
              key={image}
              class={i === index ? "thumb active" : "thumb"}
              aria-label={`Показать фото ${i + 1}`}
              aria-current={i === index ? "true" : undefined}
              onClick={() => setIndex(i)}
            >
              <Img src={image} alt="" sizes="120px" width={120} height={90} />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
