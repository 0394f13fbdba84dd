// Rightsize: small, CSP-safe behaviour. No inline scripts anywhere.
document.addEventListener("htmx:responseError", (event) => {
  const flash = document.getElementById("flash");
  if (!flash) return;
  const status = event.detail.xhr.status;
  const messages = {
    403: "You are not allowed to do that (or your session expired): reload the page.",
    404: "Not found.",
    409: "Quote changed: someone else decided first. Reload to see the new state.",
    413: "That file is too large.",
    429: "Too many attempts: wait a moment.",
  };
  flash.textContent = messages[status] || `Something went wrong (HTTP ${status}).`;
  flash.className = "flash visible error";
});

// Upload progress: htmx reports the bytes sent; the form's <progress> shows them.
document.addEventListener("htmx:xhr:progress", (event) => {
  const form = event.target.closest ? event.target.closest("form") : null;
  const bar = form ? form.querySelector("progress.upload-progress") : null;
  if (bar && event.detail.lengthComputable && event.detail.total > 0) {
    bar.value = Math.round((100 * event.detail.loaded) / event.detail.total);
  }
});

// On a phone a wide table scrolls inside its own box (rightsize.css); a box that scrolls must
// be reachable by keyboard, so each one that overflows gets tabindex=0 and a name.
function scrollBoxesFocusable(root) {
  const boxes = (root || document).querySelectorAll("table, .table-scroll");
  boxes.forEach((box) => {
    if (box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
        const section = box.closest("section, article, form");
        const heading = section ? section.querySelector("h1, h2, h3") : null;
        box.setAttribute("aria-label", heading ? `${heading.textContent.trim()} (table)` : "Table");
      }
      if (box.tagName !== "TABLE" && !box.hasAttribute("role")) box.setAttribute("role", "region");
    }
  });
}
document.addEventListener("DOMContentLoaded", () => scrollBoxesFocusable(document));
window.addEventListener("resize", () => scrollBoxesFocusable(document));
document.addEventListener("htmx:afterSettle", (event) => scrollBoxesFocusable(event.target));
