// The API reference page's own script (GET /api/v1/docs): a file, not inline,
// so the page's Content-Security-Policy can allow scripts from its origin only.
// It renders the document the page names with Swagger UI (swagger-ui-bundle.js,
// loaded before it) as a read-only reference.
(() => {
  const root = document.getElementById('api-reference');
  window.ui = window.SwaggerUIBundle({
    domNode: root,
    url: root.dataset.openapiUrl,
    deepLinking: true,
    // No "Try it out": a reference, which never sends a request with a key.
    supportedSubmitMethods: [],
    // No validity badge: it would ask validator.swagger.io about the document.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
  });
})();
