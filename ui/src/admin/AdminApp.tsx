/** The admin panel's entry, loaded only under /admin (its screens come with
 * the admin issue; this chunk is where they live). */
export default function AdminApp() {
  return (
    <main class="container page">
      <h1>Панель администратора</h1>
      <p>Раздел администрирования подключается отдельным модулем.</p>
      <p>
        <a href="/">Вернуться на сайт</a>
      </p>
    </main>
  );
}
