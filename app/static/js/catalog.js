// The vehicle page's catalog (templates/catalog/): tree branches that open and close, the schema picture's hotspots
// linked to the parts table, and OEM codes copied to the clipboard. Every handler is delegated from the document,
// because HTMX replaces the main area and the tree's branches.
(() => {
  "use strict";

  const escape = (value) => (window.CSS && CSS.escape ? CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&"));
  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const catalog = () => document.querySelector("[data-catalog]");

  function announce(text) {
    const status = document.getElementById("catalog-status");
    if (!status || !text) return;
    status.textContent = "";
    // A fresh text node after a tick, so a screen reader reads the same message twice in a row.
    window.setTimeout(() => { status.textContent = text; }, 50);
  }

  // --- the tree ---------------------------------------------------------------------------------------------------

  // A branch loads once through htmx (its toggle carries hx-get and is replaced by the opened node); afterwards the
  // toggle only shows and hides the loaded list.
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest(".tree-toggle");
    if (!toggle || toggle.hasAttribute("hx-get")) return;
    const list = document.getElementById(toggle.getAttribute("aria-controls"));
    if (!list) return;
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    list.hidden = !open;
  });

  function markCurrent() {
    const main = document.getElementById("catalog-main");
    const id = main ? main.dataset.categoryId : null;
    document.querySelectorAll(".tree-link[aria-current]").forEach((link) => link.removeAttribute("aria-current"));
    if (!id) return;
    const link = document.querySelector(`.tree-link[data-category-id="${escape(id)}"]`);
    if (link) link.setAttribute("aria-current", "page");
  }

  // --- hotspots and part rows -------------------------------------------------------------------------------------

  const POSITIONED = ".part-row[data-position], .hotspot[data-position]";

  function atPosition(leaf, position, selector) {
    return leaf.querySelectorAll(`${selector}[data-position="${escape(position)}"]`);
  }

  function select(leaf, position) {
    leaf.querySelectorAll(".is-selected").forEach((element) => element.classList.remove("is-selected"));
    const rows = atPosition(leaf, position, ".part-row");
    rows.forEach((row) => row.classList.add("is-selected"));
    atPosition(leaf, position, ".hotspot").forEach((spot) => spot.classList.add("is-selected"));
    if (rows.length) {
      rows[0].focus({ preventScroll: true });
      rows[0].scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    const label = leaf.dataset.labelSelected;
    if (label) announce(label.replace("{position}", position));
  }

  document.addEventListener("click", (event) => {
    const spot = event.target.closest(".hotspot[data-position]");
    const leaf = spot && spot.closest("[data-leaf]");
    if (!leaf) return;
    event.preventDefault(); // its href (#pos-N) is the fallback without JavaScript
    select(leaf, spot.dataset.position);
  });

  // Pointing at (or focusing) a row lights its hotspot, and pointing at a hotspot lights its rows.
  let hinted = null;

  function hint(element) {
    const leaf = element && element.closest("[data-leaf]");
    const position = leaf ? element.dataset.position : null;
    if (hinted && hinted.leaf === leaf && hinted.position === position) return;
    document.querySelectorAll(".is-hinted").forEach((item) => item.classList.remove("is-hinted"));
    hinted = position ? { leaf, position } : null;
    if (!hinted) return;
    atPosition(leaf, position, "").forEach((item) => item.classList.add("is-hinted"));
  }

  const positioned = (target) => (target && target.closest ? target.closest(POSITIONED) : null);
  document.addEventListener("mouseover", (event) => hint(positioned(event.target)));
  document.addEventListener("focusin", (event) => hint(positioned(event.target)));
  document.documentElement.addEventListener("mouseleave", () => hint(null));

  function showSelected(root) {
    const row = root.querySelector(".part-row.is-selected");
    if (row) row.scrollIntoView({ block: "center" });
  }

  // --- copying OEM codes ------------------------------------------------------------------------------------------

  // A copy goes to the clipboard, and to the copy log when the button names one (data-copy-log): the public demo's
  // buttons have none, so there a copy stays in the visitor's browser.

  async function toClipboard(text, button) {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (error) {
        // Refused (permissions): fall back to selecting the code.
      }
    }
    const code = button.parentElement.querySelector(".oem-code");
    if (!code) return false;
    const range = document.createRange();
    range.selectNodeContents(code);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false; // the code stays selected for Ctrl+C
    }
  }

  function logCopy(url) {
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: "{}",
      keepalive: true,
    }).catch(() => { /* the log is a statistic: a lost entry is not the dealer's problem */ });
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const copied = await toClipboard(button.dataset.copy, button);
    const labels = catalog() ? catalog().dataset : {};
    const text = copied ? labels.labelCopied : labels.labelCopyFailed;
    button.classList.toggle("is-copied", copied);
    if (copied) {
      if (!button.dataset.label) button.dataset.label = button.textContent;
      button.textContent = labels.labelCopied || button.dataset.label;
      window.clearTimeout(button.copyTimer);
      button.copyTimer = window.setTimeout(() => {
        button.textContent = button.dataset.label;
        button.classList.remove("is-copied");
      }, 1500);
      if (button.dataset.copyLog) logCopy(button.dataset.copyLog);
    }
    announce(text);
  });

  // --- after htmx swapped the main area ---------------------------------------------------------------------------

  document.addEventListener("htmx:afterSettle", (event) => {
    const main = event.target;
    if (!main || main.id !== "catalog-main") return;
    markCurrent();
    hinted = null;
    // The link that was followed went away with the old main area: continue from the new heading.
    if (!document.activeElement || document.activeElement === document.body) {
      const heading = main.querySelector("#catalog-main-title");
      if (heading) heading.focus({ preventScroll: true });
    }
    if (main.getBoundingClientRect().top < 0) main.scrollIntoView({ block: "start" });
    showSelected(main);
  });

  document.addEventListener("htmx:historyRestore", markCurrent);

  function start() {
    const main = document.getElementById("catalog-main");
    if (main) showSelected(main);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
