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

// "Select all on this page" ticks every row checkbox of the same name in its form.
document.querySelectorAll("input[data-select-all]").forEach((all) => {
  const boxes = () => all.form.querySelectorAll(`input[type=checkbox][name="${all.dataset.selectAll}"]`);
  all.addEventListener("change", () => boxes().forEach((box) => { box.checked = all.checked; }));
});

// Quantity steppers in the editor (typing works without them).
document.querySelectorAll("button[data-step]").forEach((button) => {
  const field = document.getElementById(button.dataset.target);
  if (!field) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const value = parseFloat((field.value || "0").replace(",", ".")) || 0;
    const next = Math.max(0, value + parseFloat(button.dataset.step));
    field.value = String(Math.round(next * 1000) / 1000);
  });
});
