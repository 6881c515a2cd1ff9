import { Link } from "wouter";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { ROUTES } from "../routes";

interface Props {
  title?: string;
  text?: string;
}

/** Unknown paths, missing cars and missing brands. */
export function NotFound({ title = "404 Page Not Found", text }: Props) {
  useDocumentTitle(title === "404 Page Not Found" ? "Страница не найдена" : title);
  return (
    <div class="container page not-found" data-testid="not-found">
      <h1>{title}</h1>
      {text ? (
        <p>{text}</p>
      ) : (
        <p>Такой страницы нет. Возможно, она была удалена или адрес набран с ошибкой.</p>
      )}
      <p>
        <Link href={ROUTES.home} role="button">
          На главную
        </Link>{" "}
        <Link href={ROUTES.newCars} role="button" class="outline">
          Каталог
        </Link>
      </p>
    </div>
  );
}
