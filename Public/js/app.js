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
    copy.querySelectorAll("[name], [id], [for], [aria-describedby], [data-target], [data-crop]").forEach((el) => {
      for (const attribute of ["name", "id", "for", "aria-describedby", "data-target", "data-crop"]) {
        if (el.hasAttribute(attribute)) el.setAttribute(attribute, rename(el.getAttribute(attribute)));
      }
    });
    copy.querySelectorAll(".field-error").forEach((el) => el.remove());
    copy.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
    copy.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    // A new draft starts without a picture: not the previous draft's photo, no illustration.
    copy.querySelectorAll('input[type=radio][value^="photo:"]').forEach((el) => el.closest("label").remove());
    copy.querySelectorAll(".crop-frame").forEach((el) => el.remove());
    copy.querySelectorAll("details").forEach((el) => { el.open = false; });
    const preview = copy.querySelector(".picture-preview");
    if (preview) { preview.src = "/static/icons/folders/box.svg"; preview.classList.remove("has-picture"); }
    copy.querySelectorAll("input, select, textarea").forEach((el) => {
      const field = (el.name || "").split(".")[1];
      if (el.type === "radio") el.checked = el.value === "";
      else if (el.type === "checkbox") el.checked = false;
      else if (el.tagName === "SELECT") el.value = defaults[field] || el.options[0].value;
      else el.value = defaults[field] || "";
    });
    const legend = copy.querySelector("legend");
    if (legend) legend.textContent = form.dataset.draftLabel.replace("{number}", String(to + 1));
    last.after(copy);
    // Listeners are not cloned: wire the new draft's steppers once it is in the page.
    copy.querySelectorAll("button[data-step]").forEach(wireStepper);
    copy.querySelectorAll("input.photo-input").forEach(wireCrop);
    if (to + 1 >= max) add.hidden = true;
    const name = copy.querySelector('input[name$=".name"]');
    if (name) name.focus();
  });
});

// Choosing a photo shows it with the square it will be cut to; dragging the square chooses what
// is kept (sent as fractions in the hidden crop field). Without JavaScript the middle is kept.
function wireCrop(input) {
  input.addEventListener("change", () => {
    const crop = document.getElementById(input.dataset.crop);
    const field = input.closest(".field") || input.parentElement;
    field.querySelectorAll(".crop-frame, .crop-hint").forEach((el) => el.remove());
    if (crop) crop.value = "";
    const file = input.files && input.files[0];
    if (!file || !crop) return;
    const frame = document.createElement("div");
    frame.className = "crop-frame";
    const image = document.createElement("img");
    image.alt = "";
    const square = document.createElement("div");
    square.className = "crop-square";
    frame.append(image, square);
    const url = URL.createObjectURL(file);
    image.addEventListener("error", () => { frame.remove(); URL.revokeObjectURL(url); });  // HEIC: the browser cannot show it; the middle is kept.
    image.addEventListener("load", () => {
      const width = image.clientWidth, height = image.clientHeight, side = Math.min(width, height);
      let left = (width - side) / 2, top = (height - side) / 2;
      const place = () => {
        square.style.left = `${left}px`; square.style.top = `${top}px`;
        square.style.width = square.style.height = `${side}px`;
        crop.value = [left / width, top / height, 1].map((n) => n.toFixed(4)).join(",");
      };
      place();
      let start = null;
      square.addEventListener("pointerdown", (event) => {
        start = { x: event.clientX, y: event.clientY, left, top };
        square.setPointerCapture(event.pointerId);
      });
      square.addEventListener("pointermove", (event) => {
        if (!start) return;
        left = Math.min(Math.max(0, start.left + event.clientX - start.x), width - side);
        top = Math.min(Math.max(0, start.top + event.clientY - start.y), height - side);
        place();
      });
      square.addEventListener("pointerup", () => { start = null; });
    });
    image.src = url;
    const hint = document.createElement("p");
    hint.className = "hint crop-hint";
    hint.textContent = input.form.dataset.cropHint || "";
    // Below the picture row, where a phone gives it the whole width.
    (input.closest(".picture-row") || input).after(frame);
    if (hint.textContent) frame.after(hint);
  });
}
document.querySelectorAll("input.photo-input").forEach(wireCrop);

// Scanning a barcode: picking the photo sends it at once (the button is there without JavaScript).
document.querySelectorAll("input.scan-input").forEach((input) => {
  const button = input.form.querySelector("button.scan-button");
  if (!button) return;
  button.hidden = true;
  input.addEventListener("change", () => { if (input.files && input.files.length) input.form.requestSubmit(button); });
});

// A live camera scanner where the browser has one and the page may use the camera (HTTPS or
// localhost). Everything works without it: the photo upload above is the usual way.
document.querySelectorAll("button.live-scan").forEach((button) => {
  if (!("BarcodeDetector" in window) || !window.isSecureContext || !navigator.mediaDevices) return;
  const form = button.form;
  const video = form.querySelector("video.live-scan-video");
  const label = button.textContent;
  let stream = null;
  const stop = () => {
    if (stream) stream.getTracks().forEach((track) => track.stop());
    stream = null;
    video.hidden = true;
    button.textContent = label;
  };
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (stream) { stop(); return; }
    try {
      const detector = new BarcodeDetector({ formats: ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "qr_code"] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      button.textContent = button.dataset.stop;
      const look = async () => {
        if (!stream) return;
        const codes = await detector.detect(video).catch(() => []);
        const code = codes.map((c) => c.rawValue).find((text) => /^[0-9]{6,14}$/.test(text));
        if (!code) { setTimeout(look, 250); return; }
        stop();
        // A draft nobody has typed into takes it (never one that already has a name or a code);
        // the server then fills it from product memory.
        const blank = (draft) => [...draft.querySelectorAll('input[type=text], textarea')]
          .every((field) => !field.value || field.name.endsWith(".quantity"));
        let draft = [...form.querySelectorAll("fieldset.draft")].find(blank);
        const add = form.querySelector('button[name="action"][value="add"]');
        if (!draft && add && !add.hidden) {
          add.click();
          const drafts = form.querySelectorAll("fieldset.draft");
          draft = drafts[drafts.length - 1];
        }
        const target = draft && draft.querySelector('input[name$=".barcode"]');
        if (!target) return;
        target.value = code;
        const lookup = form.querySelector('button[name="action"][value="lookup"]');
        if (lookup) form.requestSubmit(lookup); else target.focus();
      };
      look();
    } catch (error) {
      stop();
    }
  });
});

// Photos are sent with the form: say so before sending more than the server takes, instead of
// losing the whole batch to a "too large" page.
document.querySelectorAll("form[data-max-bytes]").forEach((form) => {
  const alert = form.querySelector(".upload-too-big");
  form.addEventListener("submit", (event) => {
    const limit = parseInt(form.dataset.maxBytes, 10);
    let total = 0;
    form.querySelectorAll("input[type=file]").forEach((input) => {
      for (const file of input.files || []) total += file.size;
    });
    // Room for the form's text fields and the multipart framing.
    if (total + 64 * 1024 <= limit || !alert) return;
    event.preventDefault();
    const mb = (bytes) => (bytes / 1048576).toFixed(1);
    alert.textContent = form.dataset.tooBig.replace("{size}", mb(total)).replace("{limit}", String(Math.floor(limit / 1048576)));
    alert.hidden = false;
    alert.scrollIntoView({ block: "center" });
  });
});

// ── rows: quick actions on a list row update that row in place ──
// Without JavaScript each action posts the list's form and comes back to the row (#item-N) with
// its notice above it. Here the same post goes through fetch with `fragment=1`; the server answers
// with the row as the page renders it (and the notice), which replaces the old row: the page does
// not move, focus stays on the same button, and the notice is announced in a live region.
(() => {
  const lists = document.querySelectorAll("ul.item-list");
  if (!lists.length || !window.fetch) return;
  const quick = /^\/(items\/\d+\/(quantity|opened|delete|buy-again)|trash\/restore)$/;
  const live = document.createElement("div");
  live.className = "row-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  (document.querySelector("main") || document.body).append(live);
  let hideTimer = null;
  const announce = (notice) => {
    clearTimeout(hideTimer);
    // What an earlier action said (at the top or beside a row) is out of date now: dimmed, not
    // removed, so nothing above the person's row moves.
    document.querySelectorAll("main > .notice, li.row-notice > .notice").forEach((old) => old.classList.add("is-stale"));
    const body = notice && (notice.querySelector(".notice") || notice);
    live.replaceChildren(...(body ? body.childNodes : []));
    // An Undo stays longer than a plain confirmation.
    hideTimer = setTimeout(() => live.replaceChildren(), live.querySelector("button") ? 15000 : 6000);
  };
  const pathOf = (button) => new URL(button.getAttribute("formaction"), location.href).pathname;
  // Which button in the new row stands for the one pressed (its action and value).
  const sameButton = (row, path, value) => [...row.querySelectorAll("button[formaction]")]
    .find((b) => pathOf(b) === path && (b.getAttribute("value") || "") === (value || ""));
  // A removed row's place, so Undo can put it back there.
  const removed = new Map();

  async function send(form, button, row) {
    const path = pathOf(button);
    const body = new URLSearchParams();
    for (const name of ["_csrf", "return"]) {
      const field = form.elements.namedItem(name);
      if (field) body.set(name, field.value);
    }
    if (button.name) body.set(button.name, button.value);
    body.set("fragment", "1");
    if (row) {
      if (row.querySelector(".row-check")) body.set("selectable", "1");
      if (row.querySelector(".item-folder")) body.set("with_folder", "1");
    } else if (removed.size) {
      const place = removed.get(button.value);
      if (place && place.selectable) body.set("selectable", "1");
      if (place && place.withFolder) body.set("with_folder", "1");
    }
    document.documentElement.setAttribute("data-row-busy", "");
    button.disabled = true;
    try {
      const response = await fetch(path, {
        method: "POST", body, credentials: "same-origin",
        headers: { Accept: "text/html+fragment" },
      });
      if (response.headers.get("X-Zaiko-Fragment") !== "row") {
        // Another page to show: the used-up question after −, or an error. A redirect already
        // happened on the server; anything else is asked again the ordinary way.
        if (response.redirected) location.assign(response.url);
        else { button.disabled = false; form.dataset.noFetch = "1"; form.requestSubmit(button); }
        return;
      }
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      const fresh = template.content.querySelector("li.item-row");
      const notice = template.content.querySelector(".row-notice");
      if (notice) notice.querySelectorAll("button").forEach((b) => { b.type = "button"; });
      // The row stays where it is on screen, whatever else changes above it.
      const place = row ? null : removed.get(button.value);
      const reference = row || (place && place.next && place.next.isConnected ? place.next : null);
      const top = reference ? reference.getBoundingClientRect().top : null;
      let kept = null, focusTarget = null;
      if (path.endsWith("/delete") && row) {
        // Gone to the trash: remember its place for Undo, and give focus to its neighbour.
        const next = row.nextElementSibling, previous = row.previousElementSibling;
        removed.set(row.id.replace("item-", ""), {
          list: row.parentElement, next, selectable: !!row.querySelector(".row-check"), withFolder: !!row.querySelector(".item-folder"),
        });
        row.remove();
        const neighbour = (next && next.matches("li.item-row") ? next : previous);
        kept = next;
        focusTarget = neighbour && neighbour.querySelector("a.item-name");
      } else if (fresh && row) {
        row.replaceWith(fresh);
        kept = fresh;
        focusTarget = sameButton(fresh, path, button.getAttribute("value")) || fresh.querySelector(".row-menu > summary") || fresh.querySelector("a.item-name");
      } else if (fresh) {
        // Undo: the row back where it was.
        const old = document.getElementById(fresh.id);
        if (old) old.replaceWith(fresh);
        else if (place && place.next && place.next.isConnected) place.next.before(fresh);
        else if (place) place.list.append(fresh);
        removed.delete(button.value);
        kept = fresh;
        focusTarget = fresh.querySelector("a.item-name");
      }
      announce(notice);
      if (top !== null && kept && kept.isConnected) window.scrollBy(0, kept.getBoundingClientRect().top - top);
      if (focusTarget) focusTarget.focus({ preventScroll: true });
    } catch (error) {
      button.disabled = false;
      form.dataset.noFetch = "1";
      form.requestSubmit(button);
    } finally {
      document.documentElement.removeAttribute("data-row-busy");
    }
  }

  // Row buttons submit the list's form with their own address (formaction).
  document.addEventListener("submit", (event) => {
    const form = event.target, button = event.submitter;
    if (form.dataset.noFetch || !button || !button.hasAttribute("formaction") || !quick.test(pathOf(button))) return;
    const row = button.closest("li.item-row");
    // Undo in a notice the server rendered (no row to put back in place): the ordinary post.
    if (!row) return;
    event.preventDefault();
    send(form, button, row);
  });
  // Undo in the live region (outside the form): post it with the list form's token and address.
  live.addEventListener("click", (event) => {
    const button = event.target.closest("button[formaction]");
    const form = document.querySelector("form.list-form");
    if (!button || !form) return;
    send(form, button, null);
  });
  // One row menu open at a time; Escape or a tap elsewhere closes it.
  document.addEventListener("toggle", (event) => {
    const menu = event.target;
    if (!menu.matches || !menu.matches("details.row-menu") || !menu.open) return;
    document.querySelectorAll("details.row-menu[open]").forEach((other) => { if (other !== menu) other.open = false; });
  }, true);
  document.addEventListener("click", (event) => {
    document.querySelectorAll("details.row-menu[open]").forEach((menu) => { if (!menu.contains(event.target)) menu.open = false; });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const menu = document.activeElement && document.activeElement.closest("details.row-menu[open]");
    if (menu) { menu.open = false; menu.querySelector("summary").focus(); }
  });
})();
