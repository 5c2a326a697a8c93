// The live-chat widget's loader (app/site/livechat.py). It hands the widget the page's language and, for a signed-in
// user, the verified identity from /api/livechat/identity ({userId, hash}), as `window.parcabulLivechat`, then loads
// the widget's script from LIVECHAT_HOST. A failed identity read still loads the widget, unverified.
(function () {
  "use strict";
  var loader = document.currentScript;
  if (!loader || !loader.dataset.livechatSrc) {
    return;
  }

  function load(identity) {
    window.parcabulLivechat = { locale: loader.dataset.livechatLocale || "tr", identity: identity };
    var script = document.createElement("script");
    script.src = loader.dataset.livechatSrc;
    script.async = true;
    document.head.appendChild(script);
  }

  var identityUrl = loader.dataset.livechatIdentity;
  if (!identityUrl) {
    load(null);
    return;
  }
  fetch(identityUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .then(function (body) {
      load(body && body.enabled ? { userId: body.userId, hash: body.hash } : null);
    })
    .catch(function () {
      load(null);
    });
})();
