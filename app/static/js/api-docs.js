// Starts Swagger UI on /api/docs. A file rather than an inline script, so the page keeps the site's CSP.
window.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    // No deep links: Swagger UI puts each operation's link inside the button that opens it, and a control within a
    // control is out of reach of assistive technology (axe-core's nested-interactive).
    deepLinking: false,
    // Every tag closed at first, its operations shown when opened: Swagger UI 5 stops rendering the page (no error
    // reported) once some 130 operations are open at once, and the API has more (tests/e2e/test_api_docs.py).
    docExpansion: "none",
    validatorUrl: null, // never send the document to an outside validator
    // A change made with the session cookie must be JSON (see docs/api.md), even when it has no body.
    requestInterceptor: (request) => {
      if (request.method !== "GET" && !request.headers["Content-Type"]) {
        request.headers["Content-Type"] = "application/json";
      }
      return request;
    },
  });
});
