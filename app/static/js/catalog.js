// The vehicle page's catalog (templates/catalog/): the tree (opened along the shown category, a drawer on a phone),
// the schema picture (zoom and pan through panzoom, a full-screen view) with its hotspots linked both ways to the
// parts table, keyboard moves through the rows, and OEM codes and part links copied to the clipboard. Handlers are
// delegated from the document, because HTMX replaces the main area and the tree's branches.
(() => {
  "use strict";

  const escape = (value) => (window.CSS && CSS.escape ? CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&"));
  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const catalog = () => document.querySelector("[data-catalog]");
  const MIN_TARGET = 28; // CSS px: a hotspot is at least this big to a finger (WCAG asks for 24)
  const ZOOM_STEP = 1.5;
  const nextFrame = () => new Promise((resolve) => window.requestAnimationFrame(resolve));

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
    setOpen(toggle, list, toggle.getAttribute("aria-expanded") !== "true");
  });

  function setOpen(toggle, list, open) {
    toggle.setAttribute("aria-expanded", String(open));
    list.hidden = !open;
  }

  function markCurrent() {
    const main = document.getElementById("catalog-main");
    const id = main ? main.dataset.categoryId : null;
    document.querySelectorAll(".tree-link[aria-current]").forEach((link) => link.removeAttribute("aria-current"));
    if (!id) return;
    const link = document.querySelector(`.tree-link[data-category-id="${escape(id)}"]`);
    if (!link) return;
    link.setAttribute("aria-current", "page");
    showFitCount(link.closest(".tree-node"), main);
    const tree = link.closest(".catalog-tree");
    if (tree && tree.scrollHeight > tree.clientHeight) {
      // Within the tree only: scrollIntoView would move the page too.
      const offset = link.getBoundingClientRect().top - tree.getBoundingClientRect().top;
      if (offset < 0 || offset > tree.clientHeight - link.offsetHeight) tree.scrollTop += offset - tree.clientHeight / 3;
    }
  }

  // A drawing's parts fetched just now, or an answer that settled its maybes: its node in the tree counts what fits
  // as the main area does (data-fit-count), greyed when nothing does.
  function showFitCount(node, main) {
    if (!node || !main.dataset.fitCount) return;
    let count = node.querySelector(":scope > .tree-row > .fit-count");
    if (!count) {
      count = document.createElement("span");
      count.className = "fit-count";
      node.querySelector(":scope > .tree-row").append(" ", count);
    }
    count.textContent = main.dataset.fitCount;
    node.classList.toggle("is-not-fitting", "fitNone" in main.dataset);
  }

  // The shown category's ancestors (data-trail) opened in the tree, loading the branches not loaded yet, so the
  // tree's selection follows every navigation, including a search hit and the browser's back and forward.
  async function followTrail() {
    const main = document.getElementById("catalog-main");
    const ids = main && main.dataset.trail ? main.dataset.trail.split(" ") : [];
    for (const id of ids) {
      if (!(await openBranch(id))) break;
    }
    markCurrent();
  }

  async function openBranch(id) {
    const node = document.getElementById(`tree-node-${id}`);
    const toggle = node && node.querySelector(":scope > .tree-row > .tree-toggle");
    if (!toggle) return false;
    if (toggle.hasAttribute("hx-get") && window.htmx) {
      await window.htmx.ajax("GET", toggle.getAttribute("hx-get"), { target: `#tree-node-${id}`, swap: "outerHTML", source: toggle });
      for (let frame = 0; frame < 60 && !document.getElementById(`tree-children-${id}`); frame += 1) await nextFrame();
      return Boolean(document.getElementById(`tree-children-${id}`));
    }
    const list = document.getElementById(toggle.getAttribute("aria-controls"));
    if (list) setOpen(toggle, list, true);
    return Boolean(list);
  }

  // On a narrow screen the tree is a drawer (CSS), opened by the button beside the search.
  const drawerMode = () => window.matchMedia("(max-width: 52rem)").matches;

  function setDrawer(open) {
    const layout = catalog();
    if (!layout) return;
    layout.classList.toggle("drawer-open", open);
    document.querySelectorAll("[data-drawer-open]").forEach((button) => button.setAttribute("aria-expanded", String(open)));
    const backdrop = layout.querySelector(".drawer-backdrop");
    if (backdrop) backdrop.hidden = !open;
    if (open) {
      const target = layout.querySelector(".tree-link[aria-current]") || layout.querySelector(".tree-link, .drawer-close");
      if (target) target.focus({ preventScroll: false });
    }
  }

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-drawer-open]")) {
      setDrawer(true);
    } else if (event.target.closest("[data-drawer-close]")) {
      setDrawer(false);
      const opener = document.querySelector("[data-drawer-open]");
      if (opener) opener.focus();
    } else if (event.target.closest(".catalog-tree .tree-link") && drawerMode()) {
      setDrawer(false); // the chosen group opens in the main area, behind the drawer
    }
  });

  // --- the picture: zoom, pan, full screen ------------------------------------------------------------------------

  const viewers = new WeakMap(); // figure -> its panzoom instance

  function startViewer(figure) {
    if (viewers.has(figure) || !window.panzoom) return;
    const frame = figure.querySelector(".schema-frame");
    let touchPanned = false;
    const zoomer = window.panzoom(frame, {
      minZoom: 1,
      maxZoom: 8,
      bounds: true,
      boundsPadding: 0.25,
      smoothScroll: false,
      zoomDoubleClickSpeed: 2,
      // At the fitted size one finger scrolls the page (it passes through); zoomed in, it pans the picture.
      onTouch: (event) => {
        touchPanned = event.touches.length > 1 || zoomer.getTransform().scale > 1.01;
        return touchPanned;
      },
      // A tap on a hotspot the picture took for itself (zoomed in): htmx and the browser saw no click.
      onClick: (event) => {
        if (!touchPanned || !event.type.startsWith("touch")) return;
        const spot = event.target.closest && event.target.closest(".hotspot[data-position]");
        if (spot) choose(spot);
      },
    });
    viewers.set(figure, zoomer);
    zoomer.on("zoom", () => sizeHotspots(figure));
    // The picture's shown size changes when it loads, when the window or the layout around it changes (a phone
    // turned, the drawer closed); panzoom's own scaling is a transform, which this does not see (the zoom event does).
    new ResizeObserver(() => sizeHotspots(figure)).observe(frame);
    sizeHotspots(figure);
  }

  function zoomBy(figure, factor) {
    const zoomer = viewers.get(figure);
    const viewport = figure.querySelector(".schema-viewport");
    if (!zoomer || !viewport) return;
    // Around the middle of the viewport (panzoom's own coordinates), at once: clicks in a row add up.
    zoomer.zoomTo(viewport.clientWidth / 2, viewport.clientHeight / 2, factor);
  }

  function fit(figure) {
    const zoomer = viewers.get(figure);
    if (!zoomer) return;
    zoomer.zoomAbs(0, 0, 1);
    zoomer.moveTo(0, 0);
    sizeHotspots(figure);
  }

  // Hotspots drawn around tiny callouts grow (about their centre) to a finger's size at the picture's current scale.
  function sizeHotspots(figure) {
    const frame = figure.querySelector(".schema-frame");
    const scale = frame ? frame.getBoundingClientRect().width / Number(figure.dataset.width) : 0;
    if (!scale) return;
    const least = MIN_TARGET / scale;
    figure.querySelectorAll(".hotspot rect").forEach((rect) => {
      const box = rect.dataset;
      if (box.w === undefined) {
        ["x", "y", "width", "height"].forEach((name) => { box[name[0]] = rect.getAttribute(name); });
      }
      const width = Math.max(Number(box.w), least);
      const height = Math.max(Number(box.h), least);
      rect.setAttribute("x", Number(box.x) - (width - Number(box.w)) / 2);
      rect.setAttribute("y", Number(box.y) - (height - Number(box.h)) / 2);
      rect.setAttribute("width", width);
      rect.setAttribute("height", height);
    });
  }

  // A selected hotspot the zoomed picture does not show is brought to the middle of it.
  function reveal(leaf, position) {
    const spot = leaf.querySelector(`.hotspot[data-position="${escape(position)}"]`);
    const figure = spot && spot.closest("[data-schema]");
    const zoomer = figure && viewers.get(figure);
    if (!zoomer) return;
    const box = spot.getBoundingClientRect();
    const view = figure.querySelector(".schema-viewport").getBoundingClientRect();
    const inside = box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom;
    if (inside) return;
    const { x, y } = zoomer.getTransform();
    const dx = view.left + view.width / 2 - (box.left + box.width / 2);
    const dy = view.top + view.height / 2 - (box.top + box.height / 2);
    if (reducedMotion()) zoomer.moveTo(x + dx, y + dy);
    else zoomer.smoothMoveTo(x + dx, y + dy);
  }

  const fullScreenFigure = () => document.fullscreenElement || document.querySelector(".schema.is-fullscreen");

  function setFullScreen(figure, on) {
    const button = figure.querySelector("[data-fullscreen]");
    if (on && figure.requestFullscreen) {
      figure.requestFullscreen().catch(() => figure.classList.add("is-fullscreen"));
    } else if (on) {
      figure.classList.add("is-fullscreen"); // no Fullscreen API (iPhone Safari): the page's own overlay
    } else {
      figure.classList.remove("is-fullscreen");
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    }
    if (button) button.setAttribute("aria-pressed", String(on));
    window.setTimeout(() => fit(figure), 100);
  }

  document.addEventListener("fullscreenchange", () => {
    document.querySelectorAll("[data-schema] [data-fullscreen]").forEach((button) => {
      const figure = button.closest("[data-schema]");
      const on = document.fullscreenElement === figure || figure.classList.contains("is-fullscreen");
      button.setAttribute("aria-pressed", String(on));
      fit(figure);
    });
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-schema] [data-zoom], [data-schema] [data-fullscreen]");
    if (!button) return;
    const figure = button.closest("[data-schema]");
    if (button.hasAttribute("data-fullscreen")) setFullScreen(figure, button.getAttribute("aria-pressed") !== "true");
    else if (button.dataset.zoom === "fit") fit(figure);
    else zoomBy(figure, button.dataset.zoom === "in" ? ZOOM_STEP : 1 / ZOOM_STEP);
  });

  document.addEventListener("keydown", (event) => {
    const figure = event.key === "Escape" ? fullScreenFigure() : null;
    if (figure && figure.classList.contains("is-fullscreen")) setFullScreen(figure, false);
    if (event.key === "Escape" && catalog() && catalog().classList.contains("drawer-open")) setDrawer(false);
  });

  // --- hotspots and part rows -------------------------------------------------------------------------------------

  const POSITIONED = ".part-row[data-position], .hotspot[data-position]";

  function atPosition(leaf, position, selector) {
    return leaf.querySelectorAll(`${selector}[data-position="${escape(position)}"]`);
  }

  // Rows that do not fit the vehicle wait in a closed <details>: a hotspot or a link that picks one opens it.
  function unfold(row) {
    const box = row.closest("details");
    if (box && !box.open) box.open = true;
  }

  const shown = (row) => !row.closest("details:not([open])");

  function clearSelection(leaf) {
    leaf.querySelectorAll(".is-selected").forEach((element) => element.classList.remove("is-selected"));
  }

  // The row is the one the keyboard lands on when tabbing into the table (a roving tabindex).
  function makeCurrent(leaf, row) {
    leaf.querySelectorAll('.part-row[tabindex="0"]').forEach((other) => other.setAttribute("tabindex", "-1"));
    row.setAttribute("tabindex", "0");
  }

  // A hotspot chosen: its rows selected, the first focused and scrolled to (a full-screen picture closes for it).
  function choose(spot) {
    const leaf = spot.closest("[data-leaf]");
    const figure = fullScreenFigure();
    if (figure) setFullScreen(figure, false);
    const position = spot.dataset.position;
    clearSelection(leaf);
    const rows = atPosition(leaf, position, ".part-row");
    rows.forEach((row) => row.classList.add("is-selected"));
    atPosition(leaf, position, ".hotspot").forEach((item) => item.classList.add("is-selected"));
    if (rows.length) {
      unfold(rows[0]);
      makeCurrent(leaf, rows[0]);
      rows[0].focus({ preventScroll: true });
      rows[0].scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    const label = leaf.dataset.labelSelected;
    if (label) announce(label.replace("{position}", position));
  }

  // A row chosen (clicked, or reached with the arrow keys): it and its hotspot selected, the hotspot brought into the
  // picture's view. Rows sharing the position are selected with it; a row without one says it is not on the picture.
  function selectRow(leaf, row) {
    clearSelection(leaf);
    makeCurrent(leaf, row);
    row.classList.add("is-selected");
    const position = row.dataset.position;
    const spots = position ? atPosition(leaf, position, ".hotspot") : [];
    spots.forEach((spot) => spot.classList.add("is-selected"));
    if (spots.length) {
      atPosition(leaf, position, ".part-row").forEach((other) => other.classList.add("is-selected"));
      reveal(leaf, position);
    } else if (leaf.querySelector(".hotspot")) {
      announce(leaf.dataset.labelNotOnPicture);
    }
  }

  document.addEventListener("click", (event) => {
    const spot = event.target.closest(".hotspot[data-position]");
    if (spot && spot.closest("[data-leaf]")) {
      event.preventDefault(); // its href (#pos-N) is the fallback without JavaScript
      choose(spot);
      return;
    }
    const row = event.target.closest("[data-leaf] .part-row");
    if (row && !event.target.closest("a, button")) selectRow(row.closest("[data-leaf]"), row);
  });

  // Arrow keys move between rows, Home and End to the first and last, Enter copies the row's OEM code.
  document.addEventListener("keydown", (event) => {
    const row = event.target.closest ? event.target.closest("[data-leaf] .part-row") : null;
    if (!row || event.target !== row || event.altKey || event.ctrlKey || event.metaKey) return;
    const leaf = row.closest("[data-leaf]");
    const rows = Array.from(leaf.querySelectorAll(".part-row")).filter(shown);
    const index = rows.indexOf(row);
    const moves = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: rows.length - 1 };
    if (event.key in moves) {
      const next = rows[moves[event.key]];
      event.preventDefault();
      if (!next) return;
      next.focus({ preventScroll: true });
      next.scrollIntoView({ block: "nearest" });
      selectRow(leaf, next);
    } else if (event.key === "Enter") {
      const copy = row.querySelector("button[data-copy]");
      if (copy) {
        event.preventDefault();
        copy.click();
      }
    }
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

  // The selected part (a search hit, a deep link, #pos-N): its row in the middle of the screen, its hotspot in view.
  // The address's #pos-N wins over an earlier selection (the server's, or a row the clerk chose).
  function showSelected(root) {
    const leaf = root.querySelector("[data-leaf]");
    if (!leaf) return;
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target && leaf.contains(target) && target.matches(".part-row")) selectRow(leaf, target);
    const row = leaf.querySelector(".part-row.is-selected");
    if (!row) return;
    unfold(row);
    row.scrollIntoView({ block: "center" });
    if (row.dataset.position) window.setTimeout(() => reveal(leaf, row.dataset.position), 0);
  }

  // --- copying OEM codes and part links ---------------------------------------------------------------------------

  // A copy goes to the clipboard, and to the copy log when the button names one (data-copy-log): the public demo's
  // buttons have none, so there a copy stays in the visitor's browser.

  async function toClipboard(text) {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (error) {
        // Refused (permissions): the older way below.
      }
    }
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    } finally {
      area.remove();
    }
  }

  // Copying failed: the code stays selected on the page, for Ctrl+C.
  function selectCode(button) {
    const code = button.parentElement.querySelector(".oem-code");
    if (!code) return;
    const range = document.createRange();
    range.selectNodeContents(code);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
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

  function showCopied(button, text) {
    if (!button.dataset.label) button.dataset.label = button.textContent;
    button.textContent = text || button.dataset.label;
    button.classList.add("is-copied");
    window.clearTimeout(button.copyTimer);
    button.copyTimer = window.setTimeout(() => {
      button.textContent = button.dataset.label;
      button.classList.remove("is-copied");
    }, 1500);
  }

  // The stable link of the row's part (app/catalog/deep_links.py): the picture's path, its position and OEM code.
  function partLink(leaf, row) {
    const url = new URL(leaf.dataset.deepLink, window.location.origin);
    if (row.dataset.position) url.searchParams.set("pos", row.dataset.position);
    const code = row.querySelector("button[data-copy]");
    if (code) url.searchParams.set("oem", code.dataset.copy);
    return url.href;
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy], button[data-copy-link]");
    if (!button) return;
    const labels = catalog() ? catalog().dataset : {};
    const leaf = button.closest("[data-leaf]");
    const row = button.closest(".part-row");
    const isLink = button.hasAttribute("data-copy-link");
    if (isLink && !(leaf && row && leaf.dataset.deepLink)) return;
    const copied = await toClipboard(isLink ? partLink(leaf, row) : button.dataset.copy);
    if (copied) {
      showCopied(button, labels.labelCopied);
      if (button.dataset.copyLog) logCopy(button.dataset.copyLog);
    } else if (!isLink) {
      selectCode(button);
    }
    announce(copied ? (isLink ? leaf.dataset.labelLinkCopied : labels.labelCopied) : labels.labelCopyFailed);
  });

  // --- start, and after htmx swapped the main area ----------------------------------------------------------------

  function startLeaf(root) {
    root.querySelectorAll("[data-schema]").forEach(startViewer);
    showSelected(root);
  }

  document.addEventListener("htmx:afterSettle", (event) => {
    const main = event.target;
    if (!main || main.id !== "catalog-main") return;
    hinted = null;
    followTrail();
    // The link that was followed went away with the old main area: continue from the new heading.
    if (!document.activeElement || document.activeElement === document.body) {
      const heading = main.querySelector("#catalog-main-title");
      if (heading) heading.focus({ preventScroll: true });
    }
    if (main.getBoundingClientRect().top < 0) main.scrollIntoView({ block: "start" });
    startLeaf(main);
  });

  // A #pos-N link into the drawing on screen, and back or forward between such addresses, change only the hash: the
  // page stays, so its selection follows here (an address htmx pushed comes back through htmx:historyRestore).
  window.addEventListener("hashchange", () => {
    const main = document.getElementById("catalog-main");
    if (main) showSelected(main);
  });

  document.addEventListener("htmx:historyRestore", () => {
    const main = document.getElementById("catalog-main");
    if (!main) return;
    followTrail();
    startLeaf(main);
  });

  function start() {
    const main = document.getElementById("catalog-main");
    if (!main) return;
    markCurrent();
    startLeaf(main);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
