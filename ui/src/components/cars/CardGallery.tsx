import { useState } from "react";
import { CarPlaceholder } from "../ui/CarPlaceholder";
import { Img } from "../ui/Img";
import { GalleryArrows } from "./GalleryArrows";

interface Props {
  images: string[];
  alt: string;
  priority?: boolean;
}

/** A card's pictures with previous/next arrows and dots; the index wraps
 * around. Arrows and dots are for pointers only (out of the Tab order): a
 * list of cards would cost ten stops each, and the car page shows them all.
 * Without JavaScript both are hidden (the first photo stays; its alt says
 * how many there are). */
export function CardGallery({ images, alt, priority }: Props) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  if (count === 0) {
    return (
      <div class="card-gallery card-gallery-empty" role="img" aria-label={`${alt}: нет фото`}>
        <CarPlaceholder />
      </div>
    );
  }
  const step = (delta: number) => setIndex((i) => (i + delta + count) % count);
  return (
    <div class="card-gallery" data-testid="card-gallery" data-index={index}>
      <Img
        src={images[index]}
        alt={`${alt}, фото ${index + 1} из ${count}`}
        sizes="(max-width: 767px) 100vw, (max-width: 1279px) 50vw, 25vw"
        width={800}
        height={600}
        priority={priority && index === 0}
      />
      {count > 1 && (
        <>
          <GalleryArrows step={step} tabbable={false} />
          <div class="gallery-dots js-only">
            {images.map((image, i) => (
              <button
                type="button"
                key={image}
                class={i === index ? "dot active" : "dot"}
                aria-label={`Фото ${i + 1}`}
                aria-current={i === index ? "true" : undefined}
                tabIndex={-1}
                onClick={() => setIndex(i)}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
