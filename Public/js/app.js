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
function wireStepper(button) {
  const field = document.getElementById(button.dataset.target);
  if (!field) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const value = parseFloat((field.value || "0").replace(",", ".")) || 0;
    const next = Math.max(0, value + parseFloat(button.dataset.step));
    field.value = String(Math.round(next * 1000) / 1000);
  });
}
document.querySelectorAll("button[data-step]").forEach(wireStepper);

// "Add another" in the batch editor: a fresh draft at once, without a round trip. Without
// JavaScript the same button submits and the server re-renders the form with one more draft.
document.querySelectorAll("form.editor[data-draft-label]").forEach((form) => {
  const add = form.querySelector('button[name="action"][value="add"]');
  if (!add) return;
  const max = parseInt(form.dataset.maxDrafts || "10", 10);
  const defaults = { unit: "piece", kind: "other", status: "unopened", quantity: "1" };
  add.addEventListener("click", (event) => {
    const drafts = form.querySelectorAll("fieldset.draft");
    if (drafts.length >= max) return;
    event.preventDefault();
    const last = drafts[drafts.length - 1];
    const from = drafts.length - 1, to = drafts.length;
    const copy = last.cloneNode(true);
    copy.id = `draft-${to}`;
    copy.classList.remove("has-error-card");
    const rename = (text) => text.replaceAll(`d${from}.`, `d${to}.`).replaceAll(`d${from}-`, `d${to}-`);
    copy.querySelectorAll("[name], [id], [for], [aria-describedby], [data-target]").forEach((el) => {
      for (const attribute of ["name", "id", "for", "aria-describedby", "data-target"]) {
        if (el.hasAttribute(attribute)) el.setAttribute(attribute, rename(el.getAttribute(attribute)));
      }
    });
    copy.querySelectorAll(".field-error").forEach((el) => el.remove());
    copy.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
    copy.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    copy.querySelectorAll("input, select, textarea").forEach((el) => {
      const field = (el.name || "").split(".")[1];
      if (el.type === "checkbox") el.checked = false;
      else if (el.tagName === "SELECT") el.value = defaults[field] || el.options[0].value;
      else el.value = defaults[field] || "";
    });
    const legend = copy.querySelector("legend");
    if (legend) legend.textContent = form.dataset.draftLabel.replace("{number}", String(to + 1));
    last.after(copy);
    // Listeners are not cloned: wire the new draft's steppers once it is in the page.
    copy.querySelectorAll("button[data-step]").forEach(wireStepper);
    if (to + 1 >= max) add.hidden = true;
    const name = copy.querySelector('input[name$=".name"]');
    if (name) name.focus();
  });
});
