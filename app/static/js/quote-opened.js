// The shared quote's beacon: once the page is in front of a person (shown, not a preview fetched in the background),
// it tells the server once that the customer opened it. The dealer's own view is not counted (the server knows him).
(() => {
  const url = document.body.dataset.openedBeacon;
  if (!url) return;
  let sent = false;
  const send = () => {
    if (sent || document.visibilityState !== "visible") return;
    sent = true;
    fetch(url, { method: "POST", credentials: "same-origin", keepalive: true }).catch(() => { sent = false; });
  };
  send();
  document.addEventListener("visibilitychange", send);
})();
