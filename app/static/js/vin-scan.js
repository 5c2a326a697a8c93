// The VIN scan dialog (templates/vehicles/_scan.html): a "Tara" button beside a VIN box opens the rear camera and reads
// barcodes live (the browser's BarcodeDetector, else the vendored ZXing-C++ WebAssembly polyfill); the first plausible
// VIN fills the box and submits its form. Without a camera, a photo goes to the server's reader and its candidates are
// offered as buttons. Every text comes from the dialog's data- attributes (Turkish or English, as the page).
// Also the phone's pairing page: its form sends the VIN to the counter PC (fetch, JSON), and the counter PC's page fills
// its VIN box with what a poll of its pairing brought (the "vin-paired" event).
(() => {
  // The phone header's dialog and a page's own each bring this script: the page runs it once.
  if (window.vinScanStarted) return;
  window.vinScanStarted = true;
  const FORMATS = ["code_39", "code_128", "data_matrix", "qr_code"];
  const VIN = /^[A-HJ-NPR-Z0-9]{17}$/; // 17 characters, no I, O or Q; the server stays the judge
  const TIMINGS_KEY = "vin-scan-frame-ms"; // per-frame decode times, kept for the page's measurement (the e2e test)

  // Only a plausible VIN counts: the text of a barcode, without spaces and dashes, upper case (Code 39 VINs often
  // carry a leading "I" import marker, which is no VIN character).
  function plausibleVin(text) {
    const cleaned = String(text || "").replace(/[\s-]+/g, "").toUpperCase();
    const candidate = cleaned.length === 18 && cleaned[0] === "I" ? cleaned.slice(1) : cleaned;
    return VIN.test(candidate) ? candidate : null;
  }

  let detectorPromise = null;

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error("script " + src));
      document.head.appendChild(script);
    });
  }

  async function nativeDetector() {
    if (!("BarcodeDetector" in window)) return null;
    try {
      const supported = await window.BarcodeDetector.getSupportedFormats();
      if (FORMATS.every((format) => supported.includes(format))) return new window.BarcodeDetector({ formats: FORMATS });
    } catch (error) { /* fall back to the polyfill */ }
    return null;
  }

  async function polyfillDetector(dialog) {
    if (!window.BarcodeDetectionAPI) await loadScript(dialog.dataset.polyfill);
    const api = window.BarcodeDetectionAPI;
    const wasm = dialog.dataset.wasm;
    // Our own copy of the .wasm (the CSP allows nothing else): never the package's CDN default.
    api.prepareZXingModule({
      overrides: { locateFile: (path, prefix) => (path.endsWith(".wasm") ? wasm : prefix + path) },
      fireImmediately: true,
    });
    return new api.BarcodeDetector({ formats: FORMATS });
  }

  function detector(dialog) {
    if (!detectorPromise) {
      detectorPromise = nativeDetector().then((found) => found || polyfillDetector(dialog));
      detectorPromise.catch(() => { detectorPromise = null; });
    }
    return detectorPromise;
  }

  function recordTiming(ms) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(TIMINGS_KEY) || "[]");
      kept.push(Math.round(ms * 10) / 10);
      sessionStorage.setItem(TIMINGS_KEY, JSON.stringify(kept.slice(-200)));
    } catch (error) { /* private mode: no record */ }
  }

  class ScanSession {
    constructor(dialog, input) {
      this.dialog = dialog;
      this.input = input;
      this.video = dialog.querySelector("[data-scan-video]");
      this.live = dialog.querySelector("[data-scan-live]");
      this.torch = dialog.querySelector("[data-scan-torch]");
      this.photo = dialog.querySelector("[data-scan-photo]");
      this.candidates = dialog.querySelector("[data-scan-candidates]");
      this.statusLine = dialog.querySelector("[data-scan-status]");
      this.stream = null;
      this.running = false;
      this.photoChosen = false;
    }

    say(name, extra) {
      const text = this.dialog.dataset[name] || "";
      this.statusLine.textContent = extra ? text + " " + extra : text;
    }

    async open() {
      this.photoChosen = false;
      this.candidates.replaceChildren();
      this.candidates.hidden = true;
      this.photo.hidden = true;
      this.torch.hidden = true;
      this.live.hidden = true;
      this.say("textStarting");
      this.dialog.showModal();
      try {
        if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new Error("no camera API");
        this.stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (error) {
        this.noCamera();
        return;
      }
      // Closed, or a photo chosen, while the browser asked for permission: the camera is not wanted any more.
      if (!this.dialog.open || this.photoChosen) { this.stop(); return; }
      this.video.srcObject = this.stream;
      await this.video.play().catch(() => {});
      this.live.hidden = false;
      this.offerTorch();
      this.offerPhoto(false);
      this.say("textScanning");
      try {
        this.detector = await detector(this.dialog);
      } catch (error) {
        this.stop();
        this.noCamera();
        return;
      }
      this.running = true;
      this.scanFrame();
    }

    noCamera() {
      this.live.hidden = true;
      if (this.photoChosen) return; // a photo is being read: its answer owns the status line
      this.say(this.offerPhoto(true) ? "textNoCamera" : "textNoCameraNoPhoto");
    }

    offerPhoto(only) {
      const available = Boolean(this.dialog.dataset.photoUrl);
      this.photo.hidden = !available;
      if (available && only) this.photo.querySelector("input").focus();
      return available;
    }

    offerTorch() {
      const [track] = this.stream.getVideoTracks();
      const capabilities = track && track.getCapabilities ? track.getCapabilities() : {};
      if (!capabilities.torch) return;
      this.torch.hidden = false;
      this.torch.setAttribute("aria-pressed", "false");
    }

    async toggleTorch() {
      const [track] = this.stream ? this.stream.getVideoTracks() : [];
      if (!track) return;
      const on = this.torch.getAttribute("aria-pressed") !== "true";
      try {
        await track.applyConstraints({ advanced: [{ torch: on }] });
        this.torch.setAttribute("aria-pressed", String(on));
      } catch (error) { this.torch.hidden = true; }
    }

    async scanFrame() {
      if (!this.running) return;
      if (this.video.readyState >= 2) {
        const started = performance.now();
        let codes = [];
        try { codes = await this.detector.detect(this.video); } catch (error) { codes = []; }
        recordTiming(performance.now() - started);
        if (!this.running) return;
        for (const code of codes) {
          const vin = plausibleVin(code.rawValue);
          if (vin) { this.use(vin); return; }
        }
        if (codes.length) this.say("textNotVin");
      }
      requestAnimationFrame(() => this.scanFrame());
    }

    use(vin) {
      this.say("textFound", vin);
      this.input.value = vin;
      this.input.dispatchEvent(new Event("input", { bubbles: true }));
      const form = this.input.form;
      this.dialog.close();
      if (form) form.requestSubmit();
    }

    async sendPhoto(file) {
      this.photoChosen = true;
      this.stop(); // the clerk chose the photo: the live scan would only overwrite its answer
      this.live.hidden = true;
      this.candidates.replaceChildren();
      this.candidates.hidden = true;
      this.say("textReading");
      const body = new FormData();
      body.append("image", file);
      let answer = null;
      let response = null;
      try {
        response = await fetch(this.dialog.dataset.photoUrl, {
          method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
        });
        answer = await response.json();
      } catch (error) {
        this.say("textPhotoFailed");
        return;
      }
      if (!response.ok) {
        const message = answer && answer.error && answer.error.message;
        if (message) this.statusLine.textContent = message; else this.say("textPhotoFailed");
        return;
      }
      const found = (answer.candidates || []).map((candidate) => plausibleVin(candidate.vin)).filter(Boolean);
      if (!found.length) { this.say("textPhotoFailed"); return; }
      this.say("textChoose");
      // Said by the server when it cannot read printed text (no Tesseract): only barcodes were read.
      if (answer.notice) this.statusLine.textContent = answer.notice + " " + this.statusLine.textContent;
      for (const vin of found) {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button secondary code";
        button.textContent = vin;
        button.addEventListener("click", () => this.use(vin));
        item.appendChild(button);
        this.candidates.appendChild(item);
      }
      this.candidates.hidden = false;
      this.candidates.querySelector("button").focus();
    }

    stop() {
      this.running = false;
      if (this.stream) this.stream.getTracks().forEach((track) => track.stop());
      this.stream = null;
      this.video.srcObject = null;
    }
  }

  let current = null;

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-vin-scan]");
    if (button) {
      const dialog = document.getElementById(button.getAttribute("aria-controls"));
      const input = document.getElementById(button.dataset.vinScan);
      if (!dialog || !input) return;
      if (current) current.stop();
      current = new ScanSession(dialog, input);
      current.open();
      return;
    }
    if (!current) return;
    if (event.target.closest("[data-scan-close]")) current.dialog.close();
    else if (event.target.closest("[data-scan-torch]")) current.toggleTorch();
  });

  document.addEventListener("change", (event) => {
    const field = event.target.closest("[data-scan-file]");
    if (field && current && field.files.length) {
      current.sendPhoto(field.files[0]);
      field.value = "";
    }
  });

  // The camera stops whenever the dialog closes: its button, Escape, or a filled box.
  document.addEventListener("close", (event) => {
    if (current && event.target === current.dialog) current.stop();
  }, true);

  // The phone's pairing page: the VIN goes to the counter PC, and the page says what became of it.
  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-pair-send]");
    if (!form) return;
    event.preventDefault();
    const status = form.querySelector("[data-pair-status]");
    const field = form.querySelector('input[name="vin"]');
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ vin: field.value }),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        status.textContent = form.dataset.textSent + " " + answer.vin;
        form.querySelectorAll("button").forEach((each) => { each.disabled = true; }); // the link is spent
        return;
      }
      status.textContent = (answer.error && answer.error.message) || form.dataset.textFailed;
    } catch (error) {
      status.textContent = form.dataset.textFailed;
    }
    button.disabled = false;
  });

  // The counter PC: a poll of its pairing brought the phone's VIN (HX-Trigger "vin-paired"): fill the box, decode.
  document.addEventListener("vin-paired", (event) => {
    const vin = plausibleVin(event.detail && event.detail.vin);
    const input = document.getElementById("decode-vin");
    if (!vin || !input) return;
    input.value = vin;
    if (input.form) input.form.requestSubmit();
  });
})();
