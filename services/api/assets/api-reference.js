// The API reference page's own script (GET /api/v1/docs): a file, not inline,
// so the page's Content-Security-Policy can allow scripts from its origin only.
// It renders the document the page names with Swagger UI (swagger-ui-bundle.js,
// loaded before it) as a read-only reference, readable with a screen reader
// and a keyboard (the page's stylesheet, api-reference.css, fixes its colours).
(() => {
  /**
   * Swagger UI's own parts, adjusted with its plugin API (wrapComponents), not
   * by editing its DOM:
   * - an operation's summary is a button (it opens the operation) that held
   *   its path as a deep link, a link inside a button, which a keyboard or a
   *   screen reader cannot reach on its own: the path is plain text there.
   *   Deep links still work: opening an operation puts its link in the
   *   address bar, and each section's title is a link;
   * - the servers list is a select without a name: it gets one.
   */
  const AccessibleReference = () => ({
    wrapComponents: {
      OperationSummaryPath: (Original, system) => (props) =>
        system.React.createElement(Original, {
          ...props,
          operationProps: props.operationProps.set('isDeepLinkingEnabled', false),
        }),
      Servers: (Original, system) => (props) =>
        system.React.createElement(
          'div',
          {
            // Called with the rendered element on every render (a new function each
            // time): the select Swagger UI renders inside gets its name.
            ref: (element) =>
              element?.querySelector('select#servers')?.setAttribute('aria-label', 'Server'),
          },
          system.React.createElement(Original, props),
        ),
    },
  });

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
    plugins: [AccessibleReference],
  });
})();
