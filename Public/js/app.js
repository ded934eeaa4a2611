// Progressive enhancement only: every page works without this file.
"use strict";

// Copy buttons (hidden without JavaScript): copy the named field's value.
// navigator.clipboard needs HTTPS or localhost; a home server on plain HTTP uses the older path.
document.querySelectorAll("button[data-copy]").forEach((button) => {
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener("click", async () => {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(field.value);
      } else {
        field.select();
        document.execCommand("copy");
      }
      button.textContent = button.dataset.copied || label;
      // Announced by screen readers through the live region.
      const status = document.getElementById(button.dataset.status || "");
      if (status) status.textContent = button.dataset.copied || "";
      setTimeout(() => { button.textContent = label; }, 2000);
    } catch (error) {
      field.select();
    }
  });
});

// A read-only link field selects itself when touched, ready to copy by hand.
document.querySelectorAll("input.copy-field[readonly]").forEach((field) => {
  field.addEventListener("focus", () => field.select());
});
