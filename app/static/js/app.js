// Theme toggle: remembers the choice; the inline head script applies it before first paint.
document.addEventListener("click", (event) => {
  const toggle = event.target.closest("[data-theme-toggle]");
  if (!toggle) return;
  const root = document.documentElement;
  const current = root.getAttribute("data-theme")
    || (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const next = current === "dark" ? "light" : "dark";
  root.setAttribute("data-theme", next);
  try { localStorage.setItem("theme", next); } catch (e) { /* private mode: the choice lasts this page only */ }
});

// The header's menu on a phone (app.css hides the links behind the button there).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-menu-toggle]");
  if (!button) return;
  const menu = document.getElementById(button.getAttribute("aria-controls"));
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  if (menu) menu.classList.toggle("is-open", open);
});

// The language switch returns to the page as it is now: HTMX may have moved the address since the form was drawn.
document.addEventListener("submit", (event) => {
  const form = event.target.closest(".language-switch");
  const next = form && form.querySelector('input[name="next"]');
  if (next) next.value = window.location.pathname + window.location.search;
});

// A "copy" button beside a read-only field (data-copy-field names the field): the text goes to the clipboard, or stays
// selected for Ctrl+C where the browser refuses.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-field]");
  if (!button) return;
  const field = document.getElementById(button.getAttribute("data-copy-field"));
  if (!field) return;
  field.select();
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(field.value); copied = true; } catch (e) { /* left selected */ }
  }
  if (!copied) {
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
  }
  if (copied && button.dataset.copiedLabel) {
    const label = button.textContent;
    button.textContent = button.dataset.copiedLabel;
    setTimeout(() => { button.textContent = label; }, 1500);
  }
});

// Once HTMX is told to open another page (HX-Redirect), the page being left asks nothing more: a poll answered while
// the next page loads would start the same navigation again and abort the first. A page restored from the back-forward
// cache asks again.
let leavingPage = false;
document.addEventListener("htmx:beforeRequest", (event) => {
  if (leavingPage) event.preventDefault();
});
document.addEventListener("htmx:beforeOnLoad", (event) => {
  const xhr = event.detail.xhr;
  if (!xhr || !xhr.getResponseHeader("HX-Redirect")) return;
  if (leavingPage) event.preventDefault();
  leavingPage = true;
});
window.addEventListener("pageshow", (event) => {
  if (event.persisted) leavingPage = false;
});
