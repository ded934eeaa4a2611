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

// "Select all on this page" ticks every row checkbox of the same name in its form; it is rendered
// hidden, since without JavaScript it could do nothing.
document.querySelectorAll("input[data-select-all]").forEach((all) => {
  const holder = all.closest("[hidden]");
  if (holder) holder.hidden = false;
  const boxes = () => all.form.querySelectorAll(`input[type=checkbox][name="${all.dataset.selectAll}"]`);
  all.addEventListener("change", () => boxes().forEach((box) => { box.checked = all.checked; }));
});

// File fields: the browser's own button cuts its text on a phone ("No fil…osen"). With
// JavaScript the native input is hidden but kept (focus, keyboard, screen readers, the form),
// a label styled as a button opens it, and the chosen file's name is shown beside it in full.
function wireFilePick(input) {
  let pick = input.parentElement.classList.contains("file-pick") ? input.parentElement : null;
  if (!pick) {
    pick = document.createElement("span");
    pick.className = "file-pick";
    input.before(pick);
    const button = document.createElement("label");
    button.className = "button button-secondary file-button";
    button.setAttribute("aria-hidden", "true");
    button.textContent = input.dataset.choose;
    const name = document.createElement("span");
    name.className = "file-name";
    pick.append(input, button, name);
  }
  const button = pick.querySelector(".file-button"), name = pick.querySelector(".file-name");
  button.htmlFor = input.id;
  const show = () => {
    const files = [...(input.files || [])];
    name.textContent = files.length ? files.map((file) => file.name).join(", ") : input.dataset.none;
    name.classList.toggle("is-empty", !files.length);
  };
  input.addEventListener("change", show);
  show();
}
document.querySelectorAll("input[type=file][data-choose]").forEach(wireFilePick);

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
    copy.querySelectorAll(".crop-frame, .crop-hint").forEach((el) => el.remove());
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
    renumberDrafts(form);
    // Listeners are not cloned: wire the new draft's steppers once it is in the page.
    copy.querySelectorAll("button[data-step]").forEach(wireStepper);
    copy.querySelectorAll("input.photo-input").forEach(wireCrop);
    copy.querySelectorAll("input[type=file][data-choose]").forEach(wireFilePick);
    if (to + 1 >= max) add.hidden = true;
    const name = copy.querySelector('input[name$=".name"]');
    if (name) name.focus();
  });
});

// Drafts are numbered by position (`d0.name`, `draft-0`, "Item 1", Remove's value): after one is
// added or removed in place, every draft gets its position's number again.
function renumberDrafts(form) {
  const drafts = form.querySelectorAll("fieldset.draft");
  drafts.forEach((draft, to) => {
    const from = parseInt(draft.id.replace("draft-", ""), 10);
    if (from !== to) {
      const rename = (text) => text.replaceAll(`d${from}.`, `d${to}.`).replaceAll(`d${from}-`, `d${to}-`);
      draft.querySelectorAll("[name], [id], [for], [aria-describedby], [data-target], [data-crop]").forEach((el) => {
        for (const attribute of ["name", "id", "for", "aria-describedby", "data-target", "data-crop"]) {
          if (el.hasAttribute(attribute)) el.setAttribute(attribute, rename(el.getAttribute(attribute)));
        }
      });
      draft.id = `draft-${to}`;
      const legend = draft.querySelector("legend");
      if (legend && form.dataset.draftLabel) legend.textContent = form.dataset.draftLabel.replace("{number}", String(to + 1));
    }
    const remove = draft.querySelector("button.draft-remove");
    if (remove) {
      remove.value = String(to);
      const hidden = remove.querySelector(".visually-hidden");
      const legend = draft.querySelector("legend");
      if (hidden && legend) hidden.textContent = ` ${legend.textContent}`;
      // The one draft left is emptied by typing, not removed.
      remove.hidden = drafts.length === 1;
    }
  });
}

// The batch editor: "Remove" takes a draft out at once (without JavaScript the server re-renders
// the form without it); the drafts are kept in this tab's storage, so a tap on the header and
// Back brings them again, and leaving with typed drafts asks first. Saving clears them.
document.querySelectorAll('form.editor[data-draft-label][action="/items/new"]').forEach((form) => {
  const folder = form.querySelector("#editor-folder");
  const key = `zaiko-drafts:${folder ? folder.value : ""}`;
  const drafts = () => [...form.querySelectorAll("fieldset.draft")];
  const fieldsOf = (draft) => [...draft.querySelectorAll("input, select, textarea")].filter((el) => el.name && el.type !== "file" && el.type !== "hidden" || (el.type === "hidden" && el.name.endsWith(".picture")));
  const suffix = (el) => el.name.slice(el.name.indexOf(".") + 1);
  const typed = (draft) => fieldsOf(draft).some((el) => {
    if (el.type === "checkbox") return el.checked;
    if (el.type === "radio" || el.tagName === "SELECT") return false;
    return el.value.trim() !== "" && !(suffix(el) === "quantity" && el.value.trim() === "1");
  });
  const hasText = () => drafts().some(typed);
  let submitting = false;
  const store = (() => { try { return window.sessionStorage; } catch (error) { return null; } })();
  const save = () => {
    if (!store || submitting) return;
    try {
      if (!hasText()) { store.removeItem(key); return; }
      const saved = {
        folder: folder ? folder.value : "",
        drafts: drafts().map((draft) => fieldsOf(draft).map((el) => [suffix(el), el.value, el.type === "checkbox" || el.type === "radio" ? el.checked : null])),
      };
      store.setItem(key, JSON.stringify(saved));
    } catch (error) { /* storage full or refused: the drafts stay on the page */ }
  };
  const restore = () => {
    let saved = null;
    try { saved = store && JSON.parse(store.getItem(key) || "null"); } catch (error) { saved = null; }
    if (!saved || !Array.isArray(saved.drafts) || !saved.drafts.length) return;
    const add = form.querySelector('button[name="action"][value="add"]');
    while (drafts().length < saved.drafts.length && add && !add.hidden) add.click();
    if (folder && saved.folder && [...folder.options].some((option) => option.value === saved.folder)) {
      folder.value = saved.folder;
      folder.dispatchEvent(new Event("change"));
    }
    drafts().forEach((draft, index) => {
      for (const [name, value, checked] of saved.drafts[index] || []) {
        draft.querySelectorAll(`[name="d${index}.${CSS.escape(name)}"]`).forEach((el) => {
          if (el.type === "checkbox") el.checked = !!checked;
          else if (el.type === "radio") { if (el.value === value) el.checked = !!checked; }
          else el.value = value;
        });
      }
    });
  };
  // Once the whole script has run, so the folder select's own listener sees a restored choice.
  setTimeout(() => {
    if (hasText()) save(); else restore();
    renumberDrafts(form);
  }, 0);
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("click", (event) => {
    const remove = event.target.closest("button.draft-remove");
    if (!remove) return;
    event.preventDefault();
    const draft = remove.closest("fieldset.draft");
    const next = draft.nextElementSibling && draft.nextElementSibling.matches("fieldset.draft") ? draft.nextElementSibling : draft.previousElementSibling;
    draft.remove();
    renumberDrafts(form);
    const add = form.querySelector('button[name="action"][value="add"]');
    if (add) add.hidden = false;
    save();
    const focus = (next && next.querySelector('input[name$=".name"]')) || add;
    if (focus) focus.focus();
  });
  form.addEventListener("submit", () => {
    submitting = true;
    if (store) store.removeItem(key);
  });
  const cancel = form.querySelector(".editor-actions a.button");
  if (cancel) cancel.addEventListener("click", () => { if (store) store.removeItem(key); });
  window.addEventListener("beforeunload", (event) => {
    if (submitting || !hasText()) return;
    event.preventDefault();
    event.returnValue = "";
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
    showInPreview(input, file);
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

// Setup: the household gets this device's time zone (without JavaScript the server's own is
// chosen); the person can still pick another before creating the household.
document.querySelectorAll('select[data-fill="time-zone"]').forEach((select) => {
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { return; }
  if ([...select.options].some((option) => option.value === zone)) select.value = zone;
});

// ── settings: a secret shown once (invitation link, calendar feed address) ──
// The page answering the POST that made it says where a reload should go instead: the address
// bar then holds a plain GET address, so a reload neither shows the secret again nor makes another.
document.querySelectorAll("[data-replace-url]").forEach((element) => {
  const url = element.dataset.replaceUrl;
  if (url && url.startsWith("/") && !url.startsWith("//")) history.replaceState(null, "", url);
});

// ── editor: the folder select shows its kind's fields at once, Enter never looks up from Name, the preview shows the chosen photo ──

// The picture preview of `element`'s picture field shows `src` (a picture chosen), or without one
// what it showed when the page came (the box icon, or the saved picture).
function setPreview(element, src) {
  const preview = (element.closest(".picture-field") || element.parentElement).querySelector("img.picture-preview");
  if (!preview) return;
  if (!("emptySrc" in preview.dataset)) {
    preview.dataset.emptySrc = preview.getAttribute("src");
    preview.dataset.emptyHasPicture = preview.classList.contains("has-picture") ? "1" : "";
  }
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  preview.src = src || preview.dataset.emptySrc;
  preview.classList.toggle("has-picture", src ? true : preview.dataset.emptyHasPicture === "1");
}

// The picture preview shows the photo just chosen (it would keep the box icon until saved);
// choosing nothing again brings back what was there.
function showInPreview(input, file) {
  setPreview(input, file ? URL.createObjectURL(file) : null);
}

// An illustration chosen shows in the preview at once, and gives a draft still of kind "Other"
// its kind (milk: dairy and eggs). Listened for on the document: drafts added in place have it too.
function chooseIllustration(radio) {
  const image = radio.closest("label") && radio.closest("label").querySelector("img");
  setPreview(radio, image ? image.src : null);
  const draft = radio.closest("fieldset.draft") || radio.form;
  const kind = draft && draft.querySelector('select[name$="kind"]');
  if (kind && radio.dataset.kind && kind.value === "other") kind.value = radio.dataset.kind;
}
document.addEventListener("change", (event) => {
  if (event.target.matches('.illustration-grid input[type="radio"]')) chooseIllustration(event.target);
});

// A name picked from the household's names (the datalist) fills what its latest item had: the
// unit, the kind, its illustration and the due date it usually gets here, each only where the
// draft still has the default (nothing the person chose is changed).
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input.matches || !input.matches('input[list="known-names"]') || !input.list) return;
  const typed = input.value.trim().toLowerCase();
  const known = [...input.list.options].find((option) => option.value.trim().toLowerCase() === typed);
  const draft = input.closest("fieldset.draft");
  if (!known || !draft) return;
  const set = (selector, value, untouched) => {
    const el = draft.querySelector(selector);
    if (el && value && !el.disabled && untouched(el)) el.value = value;
  };
  set('select[name$=".unit"]', known.dataset.unit, (el) => el.value === "piece");
  set('select[name$=".kind"]', known.dataset.kind, (el) => el.value === "other");
  set('input[name$=".due"]', known.dataset.due, (el) => el.value === "");
  const none = draft.querySelector('.illustration-grid input[type="radio"][value=""]');
  if (known.dataset.picture && none && none.checked) {
    const radio = [...draft.querySelectorAll('.illustration-grid input[type="radio"]')].find((r) => r.value === known.dataset.picture);
    if (radio) { radio.checked = true; chooseIllustration(radio); }
  }
});

// Each draft carries both kinds' own fields (stock: due date, reminder, status; shopping:
// urgent); the kind not in use is disabled, so it is not sent. Changing the folder shows the
// other kind's fields at once, and says beside the select what typed there will not be kept.
// Without JavaScript "Use this folder" does the same through the server, which asks first.
document.querySelectorAll("form.editor select#editor-folder").forEach((select) => {
  const form = select.form;
  const switchButton = form.querySelector("#editor-switch");
  if (switchButton) switchButton.hidden = true;
  const notice = form.querySelector("#editor-folder-unfit");
  const kindOf = () => {
    const option = select.selectedOptions[0];
    return option && option.parentElement ? option.parentElement.dataset.kind : undefined;
  };
  const typed = (fieldset) => [...fieldset.querySelectorAll("input, select")].filter((el) => {
    if (el.type === "checkbox") return el.checked;
    if (el.tagName === "SELECT") return el.name.endsWith(".status") && el.value !== "unopened";
    return el.value.trim() !== "";
  });
  const labelOf = (el) => {
    const label = form.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    return label ? label.textContent.trim() : el.name;
  };
  select.addEventListener("change", () => {
    const kind = kindOf();
    if (!kind) return;
    // Per draft, the labels of what it would lose ("Item 1: Due date, Status").
    const lost = new Map();
    form.querySelectorAll("fieldset.kind-fields[data-for-kind]").forEach((fieldset) => {
      const active = fieldset.dataset.forKind === kind;
      fieldset.disabled = !active;
      fieldset.hidden = !active;
      if (active) return;
      const draft = fieldset.closest("fieldset.draft");
      const labels = typed(fieldset).map(labelOf);
      if (labels.length) lost.set(draft, (lost.get(draft) || []).concat(labels));
    });
    if (!notice) return;
    // The server's own question (no JavaScript) answered: this replaces it.
    notice.querySelectorAll(".unfit-drafts, .field-checkbox").forEach((el) => el.remove());
    select.removeAttribute("aria-invalid");
    const card = select.closest(".folder-picker");
    if (card) card.classList.remove("has-error-card");
    const field = select.closest(".field");
    if (field) field.classList.remove("has-error");
    const text = notice.querySelector(".unfit-text");
    const template = form.dataset[kind === "shopping" ? "unfitShopping" : "unfitStock"] || "";
    if (text) text.textContent = lost.size ? template.replace("{folder}", select.selectedOptions[0].textContent) : "";
    if (lost.size) {
      const list = document.createElement("ul");
      list.className = "unfit-drafts";
      lost.forEach((labels, draft) => {
        const item = document.createElement("li");
        const legend = draft && draft.querySelector("legend");
        const fields = labels.join(form.dataset.unfitSeparator || ", ");
        item.textContent = legend ? (form.dataset.unfitDraft || "{draft}: {fields}").replace("{draft}", legend.textContent.trim()).replace("{fields}", fields) : fields;
        list.append(item);
      });
      notice.append(list);
    }
    notice.hidden = !lost.size;
  });
});

// Enter in a draft's field saves, as in any form; only the barcode field looks up (a USB
// scanner ends with Enter). Without JavaScript the server decides from what was typed.
document.querySelectorAll("form.editor").forEach((form) => {
  form.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.key !== "Enter" || event.isComposing || target.tagName !== "INPUT") return;
    if (["checkbox", "radio", "file", "submit", "button"].includes(target.type)) return;
    const barcode = (target.name || "").endsWith(".barcode");
    const button = form.querySelector(`button[name="action"][value="${barcode ? "lookup" : "save"}"]`);
    if (!button) return;
    event.preventDefault();
    form.requestSubmit(button);
  });
});

// ── queue: what a person does without a network waits on this phone, and is sent once it is back ──
// In the shop with no signal, a basket tap, − / + and "Add to the list" are kept in IndexedDB as
// intents (the request they make, an id made here, and the quantity the step was made on), shown
// at once on the rows ("Waiting to be sent") and counted in the banner. They are sent in order as
// soon as the server answers again (here or in another tab: a Web Lock lets one tab send), each
// with its id: the server applies an id once, so an intent whose answer was lost is not applied
// twice. Nothing expires and nothing is dropped without a word: what was sent, merged or needs a
// decision is listed afterwards, each with its Undo or choice. Intents are kept by member; another
// member signed in on this phone neither sees nor sends them, and signing out deletes them.
const offlineQueue = (() => {
  const member = document.body.dataset.member;
  const banner = document.querySelector(".queue-banner");
  if (!member || !banner || !window.indexedDB || !window.fetch) return null;
  const words = banner.dataset;
  const STORE = "intents";
  // Paths whose actions can wait: a row's basket and − / +, and adding by name to a list.
  const waits = /^\/(items\/\d+\/(quantity|basket)|folders\/\d+\/(add|bought))$/;
  let database = null;
  const open = () => database || (database = new Promise((resolve, reject) => {
    const request = indexedDB.open("zaiko-queue", 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
    request.onsuccess = () => {
      const db = request.result;
      // Signing out deletes the database: this connection must not hold it open.
      db.onversionchange = () => { db.close(); database = null; };
      resolve(db);
    };
    request.onerror = () => { database = null; reject(request.error); };
  }));
  const transact = async (mode, work) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request && request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  };
  // The database is made by the first action that waits: a page that finds none asks nothing more.
  const made = () => database ? Promise.resolve(true)
    : indexedDB.databases ? indexedDB.databases().then((all) => all.some((db) => db.name === "zaiko-queue")) : Promise.resolve(true);
  const pending = async () => {
    if (!(await made())) return [];
    return ((await transact("readonly", (store) => store.getAll())) || []).filter((intent) => intent.member === member);
  };
  const forget = (seq) => transact("readwrite", (store) => store.delete(seq));
  // The rows' shape on this page, so a row the server sends looks like its neighbours.
  const rowShape = (body) => {
    if (document.querySelector("ul.item-list .row-check")) body.set("selectable", "1");
    if (document.querySelector("ul.item-list .item-folder")) body.set("with_folder", "1");
  };
  const newId = () => [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");

  // ── on the page: rows show what waits ──
  const numberIn = (row) => {
    const qty = row && row.querySelector(".qty");
    if (!qty) return null;
    const text = [...qty.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim();
    return text === "" || !Number.isFinite(Number(text)) ? null : Number(text);
  };
  const setNumber = (row, value) => {
    const qty = row.querySelector(".qty");
    const node = qty && [...qty.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.textContent.trim() !== "");
    if (node) node.textContent = String(Math.round(value * 1000) / 1000);
  };
  const markWaiting = (row) => {
    row.dataset.waiting = "";
    const meta = row.querySelector(".item-meta");
    if (meta) meta.dataset.waiting = words.rowWaiting;
  };
  const listOf = (path) => (path.match(/^\/folders\/(\d+)\/add$/) || [])[1];
  // A row made here for an item added by name, until the server's own row replaces it.
  const localRow = (intent) => {
    const row = document.createElement("li");
    row.className = "item-row row-compact";
    row.dataset.local = "";
    row.dataset.intent = intent.id;
    const thumb = document.querySelector("ul.item-list img.item-thumb:not(.has-picture)");
    if (thumb) {
      const image = thumb.cloneNode();
      image.removeAttribute("loading");
      row.append(image);
    }
    const name = document.createElement("span");
    name.className = "item-name";
    name.textContent = intent.fields.name;
    const meta = document.createElement("p");
    meta.className = "item-meta";
    const qty = document.createElement("div");
    qty.className = "item-qty";
    qty.innerHTML = '<span class="qty"></span>';
    qty.firstChild.textContent = intent.fields.quantity || "1";
    row.append(name, meta, qty);
    markWaiting(row);
    return row;
  };
  const listHere = () => {
    let list = document.querySelector("ul.item-list");
    const form = document.querySelector("form.list-form");
    if (!list && form) {
      list = document.createElement("ul");
      list.className = "item-list";
      list.dataset.local = "";
      const empty = form.querySelector("p.empty");
      if (empty) empty.hidden = true;
      form.prepend(list);
    }
    return list;
  };
  // What an intent does, shown on this page as if done.
  const show = (intent) => {
    const list = listOf(intent.path);
    if (list) {
      if (location.pathname !== `/folders/${list}` || document.querySelector(`[data-intent="${intent.id}"]`)) return;
      const rows = listHere();
      if (rows) rows.prepend(localRow(intent));
      return;
    }
    const row = document.getElementById(`item-${intent.item}`);
    if (!row) return;
    if (intent.path.endsWith("/quantity")) {
      setNumber(row, Math.max(0, Number(intent.fields.seen) + Number(intent.fields.delta)));
    } else if (intent.path.endsWith("/bought")) {
      row.classList.add("is-bought-waiting");
      const box = row.querySelector("input.row-check");
      if (box && box.checked) { box.checked = false; box.dispatchEvent(new Event("change", { bubbles: true })); }
    } else if (intent.path.endsWith("/basket")) {
      const inBasket = intent.fields.in_basket === "1";
      row.classList.toggle("in-basket", inBasket);
      const button = row.querySelector("button.basket");
      if (button) { button.setAttribute("aria-pressed", String(inBasket)); button.value = inBasket ? "0" : "1"; }
    }
    markWaiting(row);
  };
  const showAll = async (item) => {
    for (const intent of await pending()) if (item === undefined || intent.item === item) show(intent);
  };

  // ── the banner: how many wait, and why they are not sent yet ──
  let trouble = null; // null, "retrying" or "sign-in"
  const tellCount = async () => {
    const count = (await pending()).length;
    let text = count ? (count === 1 ? words.one : words.other.replace("{count}", String(count))) : "";
    if (count && trouble) text += " — " + (trouble === "sign-in" ? words.signIn : words.retrying);
    banner.textContent = text;
    banner.hidden = !count;
    return count;
  };

  // ── after sending: what happened to each, with its Undo or choice ──
  let report = null;
  const reportLine = (nodes) => {
    if (!report || !report.isConnected) {
      report = document.createElement("form");
      report.className = "sync-notice notice";
      report.method = "post";
      report.dataset.local = "";
      report.setAttribute("role", "status");
      const token = document.querySelector("input[name=_csrf]");
      const back = document.createElement("input");
      back.type = "hidden"; back.name = "return"; back.value = location.pathname + location.search;
      const csrf = document.createElement("input");
      csrf.type = "hidden"; csrf.name = "_csrf"; csrf.value = token ? token.value : "";
      const head = document.createElement("p");
      head.className = "sync-head";
      const title = document.createElement("strong");
      title.textContent = words.sent;
      const close = document.createElement("button");
      close.type = "button";
      close.className = "notice-dismiss";
      close.setAttribute("aria-label", words.dismiss);
      close.addEventListener("click", () => { report.remove(); report = null; });
      head.append(title, close);
      report.append(csrf, back, head, document.createElement("ul"));
      banner.after(report);
    }
    const line = document.createElement("li");
    line.append(...nodes);
    line.querySelectorAll(".notice-dismiss").forEach((button) => button.remove());
    report.querySelector("ul").append(line);
  };

  // ── sending ──
  let retryTimer = null, patience = 5000;
  const later = () => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, patience);
    patience = Math.min(patience * 2, 60000);
  };
  // The answer to one intent; false when sending must stop for now (the intent stays).
  const deliver = async (intent) => {
    const token = document.querySelector("input[name=_csrf]");
    const body = new URLSearchParams(intent.fields);
    body.set("_csrf", token ? token.value : "");
    body.set("intent", intent.id);
    body.set("fragment", "1");
    body.set("return", intent.page || "/");
    rowShape(body);
    let response;
    try {
      response = await fetch(intent.path, { method: "POST", body, credentials: "same-origin", headers: { Accept: "text/html+fragment" } });
    } catch (unreachable) {
      // Offline is no trouble to mention (the count says it waits); a failure online is.
      trouble = navigator.onLine ? "retrying" : null;
      return false;
    }
    if (response.redirected && new URL(response.url).pathname === "/login") { trouble = "sign-in"; return false; }
    if (response.headers.get("X-Zaiko-Fragment") === "row") {
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      const fresh = template.content.querySelector("li.item-row");
      const notice = template.content.querySelector(".row-notice .notice");
      const local = document.querySelector(`[data-intent="${intent.id}"]`);
      if (local) local.remove();
      if (fresh) {
        const old = document.getElementById(fresh.id);
        if (old) old.replaceWith(fresh);
        else if (local || (listOf(intent.path) && location.pathname === `/folders/${listOf(intent.path)}`)) {
          const rows = listHere();
          if (rows) rows.prepend(fresh);
        }
      }
      // Only a notice: the item left this list (bought here, or deleted or moved by someone).
      if (!fresh && intent.item) {
        const gone = document.getElementById(`item-${intent.item}`);
        if (gone) gone.remove();
      }
      await forget(intent.seq);
      if (fresh) await showAll(intent.item);
      if (notice) reportLine([...notice.childNodes]);
      return true;
    }
    // Refused for a reason sending again will not change (a step past the largest quantity, a
    // list deleted meanwhile): said in the list, not kept.
    if (response.status >= 400 && response.status < 500 && response.status !== 403 && response.status !== 429) {
      const line = document.createElement("span");
      line.textContent = words.failed.replace("{name}", intent.name || "").replace("{status}", String(response.status));
      reportLine([line]);
      const local = document.querySelector(`[data-intent="${intent.id}"]`);
      if (local) local.remove();
      await forget(intent.seq);
      return true;
    }
    // A token from before a new sign-in (403), the server busy or failing: tried again later.
    trouble = "retrying";
    return false;
  };
  let sending = false;
  const sendAll = async () => {
    for (;;) {
      const [next] = await pending();
      if (!next) { trouble = null; patience = 5000; return; }
      if (!(await deliver(next))) { later(); return; }
      trouble = null;
    }
  };
  async function send() {
    // Without a network nothing is tried: the browser's "online" brings the next round.
    if (sending || !navigator.onLine) return;
    sending = true;
    try {
      if (navigator.locks) await navigator.locks.request("zaiko-queue", sendAll);
      else await sendAll();
    } catch (error) {
      later();
    } finally {
      sending = false;
      await tellCount().catch(() => {});
    }
  }

  // Whether an action must wait: one of those that can, while others wait before it (in order).
  const busy = async () => (await pending()).length > 0;
  // Keeps an action; `fields` are what the page would have sent.
  const keep = async (path, fields, row) => {
    const intent = {
      member, id: newId(), path, fields: {}, page: location.pathname + location.search, at: Date.now(),
      item: row && row.id ? row.id.replace("item-", "") : undefined,
      name: row ? (row.querySelector(".item-name") || {}).textContent : fields.name,
    };
    for (const [name, value] of Object.entries(fields)) {
      if (!["_csrf", "return", "fragment", "selectable", "with_folder"].includes(name)) intent.fields[name] = value;
    }
    // − / + remembers the quantity it was made on: the server merges it with what others did.
    if (path.endsWith("/quantity")) intent.fields.seen = String(numberIn(row) ?? 0);
    await transact("readwrite", (store) => store.add(intent));
    // Kept although the browser says it is online: the request failed on the way.
    if (navigator.onLine) trouble = "retrying";
    show(intent);
    await tellCount();
    later();
    return intent;
  };

  // "Mark bought" in the bulk bar of a shopping list: without a network (or behind what already
  // waits) each ticked row waits as one purchase into the chosen stock list, as the list shows it
  // (its quantity, no due date, joining a row of the same name there). Online, the Bought page
  // opens as usual to type quantities and dates.
  document.addEventListener("submit", async (event) => {
    const form = event.target, button = event.submitter;
    if (!form.matches("form.list-form") || form.dataset.noQueue || !button || button.name !== "action" || button.value !== "bought") return;
    event.preventDefault();
    const ticked = [...form.querySelectorAll("input.row-check:checked")];
    const stock = form.elements.namedItem("stock");
    if (!ticked.length || !stock || (navigator.onLine && !(await busy()))) {
      form.dataset.noQueue = "1";
      form.requestSubmit(button);
      delete form.dataset.noQueue;
      return;
    }
    for (const box of ticked) {
      const row = box.closest("li.item-row");
      const id = box.value;
      const fields = { action: "save", stock: stock.value, ids: id, [`join_${id}`]: "add", name: (row.querySelector(".item-name") || {}).textContent || "" };
      fields[`quantity_${id}`] = String(numberIn(row) ?? 1);
      await keep(form.getAttribute("action").replace(/\/bulk$/, "/bought"), fields, row);
    }
  });

  window.addEventListener("online", () => { patience = 5000; send(); });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") send(); });
  // What waits is shown on the page as it loads (an offline copy knows nothing of it), then sent.
  showAll().then(tellCount).then((count) => { if (count) send(); }).catch(() => {});
  return { waits: (path) => waits.test(path), busy, keep, send, showAll, listOf, rowShape };
})();

// ── rows: quick actions on a list row update that row in place ──
// Without JavaScript each action posts the list's form and comes back to the row (#item-N) with
// its notice above it. Here the same post goes through fetch with `fragment=1`; the server answers
// with the row as the page renders it (and the notice), which replaces the old row: the page does
// not move, focus stays on the same button, and the notice is announced in a live region.
(() => {
  const lists = document.querySelectorAll("ul.item-list");
  if ((!lists.length && !document.querySelector("form.list-add")) || !window.fetch) return;
  const quick = /^\/(items\/\d+\/(quantity|opened|urgent|basket|delete|buy-again)|trash\/restore)$/;
  const live = document.createElement("div");
  live.className = "row-live";
  live.dataset.local = ""; // made here, not by the server: live updates leave it alone
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  (document.querySelector("main") || document.body).append(live);
  let hideTimer = null;
  const dismiss = () => { clearTimeout(hideTimer); live.replaceChildren(); };
  // The toast sits at the bottom, clear of the navigation; its × (or Escape) closes it at once.
  live.addEventListener("click", (event) => { if (event.target.closest(".notice-dismiss")) dismiss(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && live.childNodes.length) dismiss(); });
  const announce = (notice) => {
    clearTimeout(hideTimer);
    // What an earlier action said (at the top or beside a row) is out of date now: dimmed, not
    // removed, so nothing above the person's row moves.
    document.querySelectorAll("main > .notice, li.row-notice > .notice").forEach((old) => old.classList.add("is-stale"));
    const body = notice && (notice.querySelector(".notice") || notice);
    live.replaceChildren(...(body ? body.childNodes : []));
    live.querySelectorAll(".notice-dismiss").forEach((button) => { button.hidden = false; });
    // An Undo stays longer than a plain confirmation.
    hideTimer = setTimeout(dismiss, live.querySelector("button:not(.notice-dismiss)") ? 10000 : 5000);
  };
  const pathOf = (button) => new URL(button.getAttribute("formaction"), location.href).pathname;
  // Which button in the new row stands for the one pressed (its action and value).
  const sameButton = (row, path, value) => [...row.querySelectorAll("button[formaction]")]
    .find((b) => pathOf(b) === path && (b.getAttribute("value") || "") === (value || ""));
  // Rows changed here: a live update fetched before this is out of date (see "live" below).
  const rowsChanged = () => {
    document.documentElement.dataset.rowEpoch = String(Number(document.documentElement.dataset.rowEpoch || 0) + 1);
  };
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
    // A typed amount is a step made on the quantity shown: someone else's change meanwhile is caught.
    if (button.dataset.seen) body.set("seen", button.dataset.seen);
    body.set("fragment", "1");
    if (row) {
      if (row.querySelector(".row-check")) body.set("selectable", "1");
      if (row.querySelector(".item-folder")) body.set("with_folder", "1");
    } else if (removed.size) {
      const place = removed.get(button.value);
      if (place && place.selectable) body.set("selectable", "1");
      if (place && place.withFolder) body.set("with_folder", "1");
    }
    // An action that can wait on this phone waits behind those already waiting (they go in order).
    const wait = offlineQueue && offlineQueue.waits(path) && row;
    if (wait && await offlineQueue.busy()) { await offlineQueue.keep(path, Object.fromEntries(body), row); return; }
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
      if (row && !fresh) {
        // Gone from this list (deleted here or by someone meanwhile, or moved elsewhere): remember
        // its place for Undo, and give focus to its neighbour.
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
      // No answer (no network, or it failed on the way): the page stays. An action that can wait
      // is kept on this phone and sent when the server answers again; any other says it was not saved.
      button.disabled = false;
      if (wait) await offlineQueue.keep(path, Object.fromEntries(body), row);
      else if (offlineQueue) announce(notSaved());
      else { form.dataset.noFetch = "1"; form.requestSubmit(button); }
    } finally {
      document.documentElement.removeAttribute("data-row-busy");
      rowsChanged();
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
  const notSaved = () => {
    const text = document.createElement("span");
    text.textContent = (document.querySelector(".queue-banner") || { dataset: {} }).dataset.notSaved || "";
    return text;
  };

  // "Add to the list": the new row (or the row of that name already there) in place at the top,
  // the field emptied and focused for the next one. Without a network the name waits on this phone.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form.list-add") || form.dataset.noFetch) return;
    const input = form.elements.namedItem("name");
    // Nothing typed: the server's message beside the field, the ordinary way.
    if (!input.value.trim()) return;
    event.preventDefault();
    const path = new URL(form.action, location.href).pathname;
    const body = new URLSearchParams(new FormData(form));
    body.set("fragment", "1");
    if (document.querySelector("ul.item-list .row-check")) body.set("selectable", "1");
    const keep = async () => { await offlineQueue.keep(path, Object.fromEntries(body), null); input.value = ""; input.focus(); };
    if (offlineQueue && await offlineQueue.busy()) { await keep(); return; }
    document.documentElement.setAttribute("data-row-busy", "");
    try {
      const response = await fetch(path, { method: "POST", body, credentials: "same-origin", headers: { Accept: "text/html+fragment" } });
      const list = document.querySelector("ul.item-list");
      if (response.headers.get("X-Zaiko-Fragment") !== "row" || !list) {
        // A problem to show beside the field, or the list's first row (the page changes shape).
        if (response.headers.get("X-Zaiko-Fragment") === "row") { location.reload(); return; }
        form.dataset.noFetch = "1";
        form.requestSubmit();
        return;
      }
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      const fresh = template.content.querySelector("li.item-row");
      if (fresh) {
        const old = document.getElementById(fresh.id);
        if (old) old.replaceWith(fresh);
        else list.prepend(fresh);
      }
      const notice = template.content.querySelector(".row-notice");
      if (notice) notice.querySelectorAll("button").forEach((b) => { b.type = "button"; });
      announce(notice);
      input.value = "";
      input.focus();
    } catch (error) {
      if (offlineQueue) await keep();
      else { form.dataset.noFetch = "1"; form.requestSubmit(); }
    } finally {
      document.documentElement.removeAttribute("data-row-busy");
      rowsChanged();
    }
  });

  // On a shopping list the whole row is the basket's tap target (its links, buttons, tick box and
  // menu keep their own).
  document.addEventListener("click", (event) => {
    const row = event.target.closest("li.item-row");
    const basket = row && row.querySelector("button.basket");
    if (!basket || event.target.closest("a, button, input, label, summary, details")) return;
    basket.click();
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

// ── bulk: the bar for ticked rows ──
// Without JavaScript the bar sits at the end of the list's form. With it, the bar stays out of
// the way until a row is ticked, then floats at the bottom of the screen with the count ("3
// selected", the language's plural from the catalog) and the floating "Add items" button steps
// aside so it never covers the bar.
document.querySelectorAll("form .bulk-bar").forEach((bar) => {
  const form = bar.closest("form");
  const count = bar.querySelector(".bulk-count");
  if (!count) return; // the trash's bar stays in place
  const plurals = new Intl.PluralRules(document.documentElement.lang || "en");
  form.classList.add("js-bulk");
  const update = () => {
    const ticked = form.querySelectorAll("input.row-check:checked").length;
    bar.classList.toggle("has-selection", ticked > 0);
    document.body.classList.toggle("bulk-active", ticked > 0);
    const text = (plurals.select(ticked) === "one" && bar.dataset.countOne) || bar.dataset.countOther || "{count}";
    count.textContent = ticked > 0 ? text.replace("{count}", String(ticked)) : "";
    // Room below the last row, so the bar never hides it.
    document.body.style.setProperty("--bulk-bar-height", ticked > 0 ? `${bar.offsetHeight}px` : "0px");
  };
  form.addEventListener("change", update);
  window.addEventListener("pageshow", update); // ticks kept by the back-forward cache
  update();
});

// "Select all in this group" on Use soon: ticks the rows of its own section.
document.querySelectorAll("input[data-select-group]").forEach((all) => {
  const label = all.closest("label");
  if (label) label.hidden = false;
  all.addEventListener("change", () => {
    all.closest("section").querySelectorAll("input.row-check").forEach((box) => { box.checked = all.checked; });
  });
});

// The Bought page: choosing another stock list shows its rows to add to at once (the page is
// redrawn by the server, with everything typed kept); without JavaScript, "Use this list".
document.querySelectorAll("select[data-bought-refresh]").forEach((select) => {
  const button = select.form.querySelector('button[name="action"][value="refresh"]');
  if (!button) return;
  button.hidden = true;
  select.addEventListener("change", () => select.form.requestSubmit(button));
});

// Shortcuts under a due date ("+3 days", "+1 week", "+1 month"; rendered hidden, since without
// JavaScript they could do nothing): a tap puts their day into the field. Listened for on the
// document, so a draft the editor adds by copying another has them working too.
document.querySelectorAll("[data-shortcuts]").forEach((group) => { group.hidden = false; });
document.addEventListener("click", (event) => {
  const chip = event.target.closest("[data-shortcuts] button[data-value]");
  const field = chip && document.getElementById(chip.parentElement.dataset.target);
  if (!field) return;
  field.value = chip.dataset.value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
});

// ── live: what others change shows up without a reload ──
// The server streams the household's changes (/events, Server-Sent Events) from the sequence the
// page was rendered at (body[data-since]). A change that concerns this page fetches the page again
// and patches only what differs, the way the server renders it: rows keep their place, ticked boxes
// stay ticked, and an element being worked in (a focused field, an open menu, a form being edited)
// is never overwritten: "Changed by Hanako — Show" appears instead. Tabs of one browser share one
// stream (the tab holding a Web Lock opens it and passes events on over a BroadcastChannel).
(() => {
  const since = Number(document.body.dataset.since);
  if (!Number.isFinite(since) || !document.querySelector("main") || !window.fetch || !window.EventSource) return;
  let seen = since;
  const folder = (location.pathname.match(/^\/folders\/(\d+)$/) || [])[1];
  const item = (location.pathname.match(/^\/items\/(\d+)(\/edit)?$/) || []);
  // An editor is never patched: what the person typed stays, and saving merges (three-way).
  const isEditor = !!document.querySelector("main form.editor, main form[data-editor]") || /\/(edit|new)$/.test(location.pathname);

  // Which changes this page shows: pages that show none (settings, account…) ignore the stream.
  const path = location.pathname;
  const concerns = (change) => {
    if (folder) return change.entity === "folder" ? String(change.id) === folder
      : change.entity === "item" && (String(change.from) === folder || String(change.to) === folder);
    if (item[1]) return change.entity === "item" && String(change.id) === item[1];
    if (path === "/") return change.entity === "folder" || change.entity === "item";
    if (/^\/(soon|calendar|trash)$/.test(path)) return change.entity === "item";
    // What can we make and the plan: recipes and meals, and the stock they are weighed against
    // (items, the lists' kinds and trash, products' barcodes): every entity of the feed.
    if (/^\/recipes(\/|$)/.test(path) || path === "/plan") return ["recipe", "meal", "item", "folder", "product"].includes(change.entity);
    return false;
  };

  const notice = document.createElement("div");
  notice.className = "live-notice";
  notice.setAttribute("role", "status");
  notice.hidden = true;
  const text = document.createElement("span");
  const show = document.createElement("button");
  show.type = "button";
  show.className = "link-button";
  show.textContent = document.body.dataset.liveShow || "Show";
  show.addEventListener("click", () => location.reload());
  notice.append(text, " ", show);
  document.body.append(notice);
  const tell = (by) => {
    const template = by ? document.body.dataset.liveChangedBy : document.body.dataset.liveChanged;
    text.textContent = (template || "Changed").replace("{name}", by || "");
    notice.hidden = false;
  };

  // Being worked in: a focused field, an open menu, a row whose quick action is on its way.
  const busy = (element) => {
    // A row showing what waits on this phone keeps showing it until it is sent.
    if (element.matches("[data-waiting]") || element.querySelector("[data-waiting]")) return true;
    const active = document.activeElement;
    if (active && element.contains(active) && active.matches("input:not([type=checkbox]):not([type=radio]), textarea, select")) return true;
    return !!(element.matches("details[open]") || element.querySelector("details[open]"));
  };
  // Ticks the person made stay made.
  const keepTicks = (current, fresh) => {
    current.querySelectorAll("input[type=checkbox][id]").forEach((box) => {
      const twin = fresh.querySelector(`#${CSS.escape(box.id)}`);
      if (twin && twin.type === "checkbox") twin.checked = box.checked;
    });
    if (current.matches("input[type=checkbox]") && fresh.matches("input[type=checkbox]")) fresh.checked = current.checked;
  };
  let kept = false;
  // What the server rendered, without what scripts here added (marked data-local).
  const kids = (element) => [...element.children].filter((child) => !child.hasAttribute("data-local"));
  const replace = (current, fresh) => {
    if (busy(current)) { kept = true; return; }
    current.querySelectorAll(":scope > [data-local]").forEach((local) => fresh.append(local));
    const focused = document.activeElement && current.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused && (focused.id || focused.getAttribute("formaction") + "|" + (focused.getAttribute("value") || ""));
    keepTicks(current, fresh);
    current.replaceWith(fresh);
    if (focusKey) {
      const again = fresh.querySelector(`[id="${CSS.escape(focusKey)}"]`) ||
        [...fresh.querySelectorAll("[formaction]")].find((b) => b.getAttribute("formaction") + "|" + (b.getAttribute("value") || "") === focusKey);
      if (again) again.focus({ preventScroll: true });
    }
  };
  // Only what the server's data decides is patched: the lists' rows, the folder cards, a list's
  // count and its Put away, the plan's meals day by day; everything else on the page (what scripts
  // here showed, hid or added) stays as it is. A list's rows are matched by id: rows come, go and
  // change in place, and the notices beside them are left alone.
  const REGIONS = "ul.item-list, ul.folder-list, .list-head > .hint, .put-away, ul.plan-meals";
  // A row from a quick action's answer does not name its neighbour for the no-script delete
  // (`name="next"`): that alone is no change. (Without this, a row a script had marked up was
  // never equal to the server's, and every live update replaced every row of the list.)
  const sameRow = (a, b) => {
    if (a.isEqualNode(b)) return true;
    const [x, y] = [a.cloneNode(true), b.cloneNode(true)];
    for (const row of [x, y]) row.querySelectorAll("button[formaction$='/delete']").forEach((d) => { d.removeAttribute("name"); d.removeAttribute("value"); });
    // Nor is what a script here added to it: the quantity made a button to type the amount.
    for (const row of [x, y]) row.querySelectorAll("span.qty[role]").forEach((q) => { for (const a of ["role", "tabindex", "aria-label"]) q.removeAttribute(a); });
    return x.isEqualNode(y);
  };
  const patchList = (current, fresh) => {
    if (current.isEqualNode(fresh)) return;
    const freshRows = kids(fresh);
    if (!freshRows.some((child) => child.id)) {
      const rows = kids(current);
      if (rows.length !== freshRows.length) { replace(current, fresh); return; }
      rows.forEach((child, index) => { if (!child.isEqualNode(freshRows[index])) replace(child, freshRows[index]); });
      return;
    }
    const freshIds = new Set(freshRows.map((child) => child.id).filter(Boolean));
    // A row gone from the page but being worked in stays until the person is done (then caught up).
    kids(current).forEach((child) => {
      if (!child.id || freshIds.has(child.id)) return;
      if (busy(child)) kept = true;
      else child.remove();
    });
    let previous = null;
    freshRows.forEach((child) => {
      if (!child.id) return;
      const existing = current.querySelector(`:scope > #${CSS.escape(child.id)}`);
      if (existing) { if (!sameRow(existing, child)) replace(existing, child); }
      else if (previous && previous.isConnected) previous.after(child);
      else current.prepend(child);
      previous = current.querySelector(`:scope > #${CSS.escape(child.id)}`);
    });
  };
  // False when the page has nothing to patch (an item's page, a recipe) or its shape changed (a
  // list became empty, or its first rows arrived, or the plan's days are other days since
  // midnight): then the notice offers to show it.
  const patch = (main, freshMain) => {
    const current = [...main.querySelectorAll(REGIONS)], fresh = [...freshMain.querySelectorAll(REGIONS)];
    const same = (element, index) => element.className === fresh[index].className && element.id === fresh[index].id;
    if (!current.length || current.length !== fresh.length || !current.every(same)) return false;
    current.forEach((element, index) => {
      if (element.tagName === "UL") patchList(element, fresh[index]);
      else if (!element.isEqualNode(fresh[index])) replace(element, fresh[index]);
    });
    return true;
  };

  const whenFree = (then) => {
    const check = () => setTimeout(() => {
      if (document.querySelector("main details[open]") || busy(document.querySelector("main"))) return;
      document.removeEventListener("toggle", check, true);
      document.removeEventListener("focusout", check, true);
      then();
    }, 0);
    document.addEventListener("toggle", check, true);
    document.addEventListener("focusout", check, true);
  };

  let running = false, again = false, lastBy = null, stop = () => {};
  const refresh = async () => {
    if (running || document.documentElement.hasAttribute("data-row-busy")) { again = true; return; }
    running = true;
    // A quick action here while the page was on its way (a delete, then its Undo) makes the
    // fetched page older than the rows on screen: it is fetched again instead of patched in.
    const epoch = document.documentElement.dataset.rowEpoch;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!response.ok || response.redirected) { tell(lastBy); return; }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (epoch !== document.documentElement.dataset.rowEpoch || document.documentElement.hasAttribute("data-row-busy")) {
        again = true;
        return;
      }
      const fresh = page.querySelector("main");
      if (!fresh) return;
      kept = false;
      const patched = patch(document.querySelector("main"), fresh);
      if (!patched || kept) tell(lastBy);
      else notice.hidden = true;
      // A row kept for the person's open menu or field is brought up to date once they are done.
      if (patched && kept) whenFree(refresh);
    } catch (error) {
      // Offline or the server restarting: the stream reconnects and brings the change again.
    } finally {
      running = false;
      if (again) { again = false; setTimeout(refresh, 50); }
    }
  };

  const receive = (type, data, id) => {
    // Signed out (here or elsewhere): the stream has ended for good; the next tap goes to the
    // sign-in page.
    if (type === "signed-out") { stop(); return; }
    if (type === "reload") { if (isEditor) tell(null); else refresh(); return; }
    if (type !== "changes") return;
    let changes;
    try { changes = JSON.parse(data); } catch (error) { return; }
    const fresh = changes.filter((change) => change.seq > seen && concerns(change));
    seen = Math.max(seen, Number(id) || 0);
    if (!fresh.length) return;
    lastBy = fresh[fresh.length - 1].by;
    if (isEditor) tell(lastBy);
    else refresh();
  };

  // One stream per browser where it can be shared; each tab keeps its own place (`seen`).
  const channel = window.BroadcastChannel ? new BroadcastChannel("zaiko-events") : null;
  if (channel) channel.onmessage = (message) => receive(message.data.type, message.data.data, message.data.id);
  const listen = () => new Promise(() => {
    const source = new EventSource(`/events?since=${encodeURIComponent(String(seen))}`);
    stop = () => source.close();
    // A page the worker answered with its copy: once the stream is open again, whatever changed
    // since the copy arrives and is patched in, so it is no longer "offline, as of".
    source.addEventListener("open", () => {
      const offline = document.querySelector(".offline-banner");
      if (offline) offline.hidden = true;
    });
    for (const type of ["changes", "reload", "signed-out"]) {
      source.addEventListener(type, (event) => {
        receive(type, event.data, event.lastEventId);
        if (channel) channel.postMessage({ type, data: event.data, id: event.lastEventId });
      });
    }
  });
  if (channel && navigator.locks) navigator.locks.request("zaiko-events", listen);
  else listen();
})();

// ── offline: the service worker (Public/sw.js) and the copies it keeps ──
// Over HTTPS the worker keeps the lists to read without a network. (Browsers allow a worker on
// plain-HTTP loopback addresses too; there it stays off: nobody carries the server's own machine
// to the shop.) A page it answers with its copy is marked `data-offline-copy` with the time the
// copy was saved; the banner, rendered hidden with its words, says so in the household's time zone.
(() => {
  const banner = document.querySelector(".offline-banner");
  const saved = document.documentElement.dataset.offlineCopy;
  if (!banner || !saved) return;
  const when = new Date(saved), zone = banner.dataset.timeZone || undefined, lang = document.documentElement.lang;
  const day = (instant) => instant.toLocaleDateString("en-CA", { timeZone: zone });
  // A copy from an earlier day says its date as well.
  const style = day(when) === day(new Date()) ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" };
  banner.textContent = banner.dataset.text.replace("{time}", new Intl.DateTimeFormat(lang, { ...style, timeZone: zone }).format(when));
  banner.hidden = false;
  // Back online: what changed since the copy comes over the live stream (and what waited here is sent).
  window.addEventListener("online", () => { banner.hidden = true; });
})();

if ("serviceWorker" in navigator && location.protocol === "https:") {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* no worker: the pages work as before */ });
  // Signing out drops every copy first, so the next person on this phone finds none (the
  // server's answer says so too, with Clear-Site-Data): the worker's, told so it stores nothing
  // fetched before, and whatever this site keeps in IndexedDB.
  document.querySelectorAll('form[action="/logout"]').forEach((form) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const worker = navigator.serviceWorker.controller;
      const told = worker && new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        worker.postMessage("forget", [channel.port2]);
      });
      const copies = caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name))));
      const databases = indexedDB.databases ? indexedDB.databases().then((all) => all.forEach((db) => indexedDB.deleteDatabase(db.name))) : null;
      const patience = new Promise((resolve) => setTimeout(resolve, 2000));
      await Promise.race([Promise.all([told, copies, databases]).catch(() => {}), patience]);
      form.submit();
    });
  });
}

// ── a row's quantity: tap it to type the amount ──
// On a row with − and +, the quantity is a button that turns into a field: Enter (or leaving the
// field) sends the difference as one step made on the quantity shown, the way − and + are sent
// (in place, waiting on the phone without a network, someone else's change meanwhile caught);
// Escape leaves it as it was. Without script the item's editor types the amount.
(() => {
  const label = document.body.dataset.typeAmount, invalid = document.body.dataset.typeAmountInvalid;
  if (!label) return;
  const shown = (qty) => {
    const text = [...qty.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim();
    return text === "" || !Number.isFinite(Number(text)) ? null : Number(text);
  };
  const nameOf = (qty) => ((qty.closest("li.item-row") || document).querySelector(".item-name") || {}).textContent || "";
  const enhance = () => document.querySelectorAll("li.item-row .item-qty > span.qty:not([role])").forEach((qty) => {
    if (!qty.parentElement.querySelector("button.step") || shown(qty) === null) return;
    qty.setAttribute("role", "button");
    qty.tabIndex = 0;
    qty.setAttribute("aria-label", label.replace("{name}", nameOf(qty)));
  });
  enhance();
  new MutationObserver(enhance).observe(document.body, { childList: true, subtree: true });

  const open = (qty) => {
    const box = qty.parentElement, step = box.querySelector("button.step"), form = qty.closest("form");
    const before = shown(qty);
    if (!step || !form || before === null || box.querySelector("input.qty-input")) return;
    const input = document.createElement("input");
    input.className = "qty-input";
    input.type = "text";
    input.inputMode = "decimal";
    input.autocomplete = "off";
    input.maxLength = 12;
    input.value = String(before);
    input.setAttribute("aria-label", label.replace("{name}", nameOf(qty)));
    qty.hidden = true;
    qty.after(input);
    input.focus();
    input.select();
    let done = false;
    const close = () => { done = true; input.remove(); qty.hidden = false; };
    const commit = () => {
      if (done) return;
      const typed = Number(input.value.normalize("NFKC").trim().replace(",", "."));
      if (input.value.trim() === "" || !Number.isFinite(typed) || typed < 0 || typed > 1000000) {
        input.setAttribute("aria-invalid", "true");
        input.setCustomValidity(invalid || "");
        input.reportValidity();
        return;
      }
      const delta = Math.round((typed - before) * 1000) / 1000;
      close();
      if (delta === 0) { qty.focus(); return; }
      const send = step.cloneNode(false);
      send.value = String(delta);
      send.dataset.seen = String(before);
      send.hidden = true;
      send.removeAttribute("aria-label");
      box.append(send);
      form.requestSubmit(send);
    };
    input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); input.setCustomValidity(""); });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); commit(); }
      if (event.key === "Escape") { event.preventDefault(); close(); qty.focus(); }
    });
    input.addEventListener("blur", () => { if (!done && input.getAttribute("aria-invalid") !== "true") commit(); });
  };
  document.addEventListener("click", (event) => {
    const qty = event.target.closest("li.item-row .item-qty > span.qty[role=button]");
    if (qty) { event.preventDefault(); open(qty); }
  });
  document.addEventListener("keydown", (event) => {
    const qty = event.target.closest && event.target.closest("span.qty[role=button]");
    if (qty && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); open(qty); }
  });
})();
