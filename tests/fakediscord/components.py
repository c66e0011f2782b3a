"""Message components as Discord checks and stores them: legacy action rows and Components V2 layouts.

`check_message` returns the 400 body Discord would answer (50035 Invalid Form Body with a nested `errors`
tree, or 50006 for an empty message) or None; `normalize` gives every component an `id` (Discord numbers
them 1, 2, ... in tree order when the bot sends none) and resolves `attachment://name` media to the upload.
The `_errors` codes follow Discord's naming; the exact code strings are best effort, the paths and the
messages are what a bot (and discord.py's `HTTPException.text`) sees.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

JSON = dict[str, Any]

COMPONENTS_V2_FLAG = 1 << 15

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER, LABEL = 9, 10, 11, 12, 13, 14, 17, 18
FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 19, 21, 22, 23

SELECTS = {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
INTERACTIVE = SELECTS | {BUTTON}
LINK_STYLE, PREMIUM_STYLE = 5, 6

# Limits Discord enforces.
MAX_TOTAL_V2 = 40  # components in a V2 message, nested ones included
MAX_ROWS_V1 = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100  # option label, value and description
MAX_PLACEHOLDER = 150
MAX_TEXT_DISPLAY_TOTAL = 4000  # characters of all text displays in a message
MAX_GALLERY_ITEMS = 10
MAX_SECTION_TEXTS = 3
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_LABEL_TEXT = 45
MAX_LABEL_DESCRIPTION = 100

V2_TOP = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
V2_IN_CONTAINER = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR}
MODAL_TOP = {ACTION_ROW, TEXT_DISPLAY, LABEL}
IN_LABEL = SELECTS | {TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX}


def walk(components: Iterable[JSON]) -> Iterator[JSON]:
    """Every component, depth first: rows, sections (texts, then the accessory), containers, labels."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk([comp[key]])


class FormErrors:
    """Builds Discord's nested `errors` object: {"components": {"0": {"custom_id": {"_errors": [...]}}}}."""

    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.tree)

    def body(self) -> JSON:
        return {"code": 50035, "message": "Invalid Form Body", "errors": self.tree}


def _too_long(errors: FormErrors, path: list[Any], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


class _Checker:
    """One message's (or modal's) components: per-component rules plus message-wide ones."""

    def __init__(self, errors: FormErrors, *, v2: bool, modal: bool = False, attachments: Iterable[str] = ()) -> None:
        self.errors = errors
        self.v2 = v2
        self.modal = modal
        self.attachments = set(attachments)
        self.custom_ids: dict[str, list[Any]] = {}
        self.ids: dict[int, list[Any]] = {}
        self.total = 0
        self.text_chars = 0

    def run(self, components: Any, path: list[Any]) -> None:
        if not isinstance(components, list):
            self.errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
            return
        allowed = MODAL_TOP if self.modal else (V2_TOP if self.v2 else {ACTION_ROW})
        if self.modal and len(components) > MAX_MODAL_COMPONENTS:
            self.errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.")
        if not self.v2 and not self.modal and len(components) > MAX_ROWS_V1:
            self.errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {MAX_ROWS_V1} in length.")
        for i, comp in enumerate(components):
            self.component(comp, [*path, i], allowed)
        if self.v2 and self.total > MAX_TOTAL_V2:
            self.errors.add(
                path, "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED", f"Must be {MAX_TOTAL_V2} or fewer components in total."
            )
        if self.text_chars > MAX_TEXT_DISPLAY_TOTAL:
            self.errors.add(
                path,
                "COMPONENT_MAX_TOTAL_TEXT_LENGTH_EXCEEDED",
                f"Text displays must be {MAX_TEXT_DISPLAY_TOTAL} or fewer characters in total.",
            )
        for custom_id, paths in self.custom_ids.items():
            for dup in paths[1:]:
                self.errors.add(
                    [*dup, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id {custom_id!r} cannot be duplicated",
                )
        for cid, paths in self.ids.items():
            for dup in paths[1:]:
                self.errors.add([*dup, "id"], "COMPONENT_ID_DUPLICATED", f"Component id {cid} cannot be duplicated")

    def component(self, comp: Any, path: list[Any], allowed: set[int]) -> None:
        if not isinstance(comp, dict) or not isinstance(comp.get("type"), int):
            self.errors.add([*path, "type"], "BASE_TYPE_REQUIRED", "This field is required")
            return
        kind = comp["type"]
        self.total += 1
        if kind not in allowed:
            choices = ", ".join(str(k) for k in sorted(allowed))
            self.errors.add([*path, "type"], "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({choices}).')
            return
        if "id" in comp and comp["id"] is not None:
            self.ids.setdefault(int(comp["id"]), []).append(path)
        if "custom_id" in comp:
            custom_id = comp["custom_id"]
            if not isinstance(custom_id, str) or not custom_id:
                self.errors.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                _too_long(self.errors, [*path, "custom_id"], custom_id, MAX_CUSTOM_ID)
                self.custom_ids.setdefault(custom_id, []).append(path)
        check = getattr(self, f"_type_{kind}", None)
        if check is not None:
            check(comp, path)

    # --- layout -----------------------------------------------------------------------

    def _type_1(self, comp: JSON, path: list[Any]) -> None:  # action row
        children = comp.get("components") or []
        if not children:
            self.errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            return
        allowed = {TEXT_INPUT} if self.modal else INTERACTIVE
        width = 0
        for i, child in enumerate(children):
            self.component(child, [*path, "components", i], allowed)
            if isinstance(child, dict):
                width += MAX_ROW_WIDTH if child.get("type") in SELECTS | {TEXT_INPUT} else 1
        if width > MAX_ROW_WIDTH:
            self.errors.add(
                [*path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )

    def _type_9(self, comp: JSON, path: list[Any]) -> None:  # section
        texts = comp.get("components") or []
        if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
            self.errors.add(
                [*path, "components"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_SECTION_TEXTS} in length."
            )
        for i, child in enumerate(texts):
            self.component(child, [*path, "components", i], {TEXT_DISPLAY})
        accessory = comp.get("accessory")
        if accessory is None:
            self.errors.add([*path, "accessory"], "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.component(accessory, [*path, "accessory"], {BUTTON, THUMBNAIL})

    def _type_17(self, comp: JSON, path: list[Any]) -> None:  # container
        children = comp.get("components") or []
        if not children:
            self.errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
        for i, child in enumerate(children):
            self.component(child, [*path, "components", i], V2_IN_CONTAINER)
        color = comp.get("accent_color")
        if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
            self.errors.add([*path, "accent_color"], "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")

    def _type_18(self, comp: JSON, path: list[Any]) -> None:  # label (modals)
        label = comp.get("label")
        if not label:
            self.errors.add([*path, "label"], "BASE_TYPE_REQUIRED", "This field is required")
        _too_long(self.errors, [*path, "label"], label, MAX_LABEL_TEXT)
        _too_long(self.errors, [*path, "description"], comp.get("description"), MAX_LABEL_DESCRIPTION)
        inner = comp.get("component")
        if inner is None:
            self.errors.add([*path, "component"], "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.component(inner, [*path, "component"], IN_LABEL)

    # --- content ------------------------------------------------------------------------

    def _type_2(self, comp: JSON, path: list[Any]) -> None:  # button
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            self.errors.add([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        label = comp.get("label")
        _too_long(self.errors, [*path, "label"], label, MAX_BUTTON_LABEL)
        if style == LINK_STYLE:
            if not comp.get("url"):
                self.errors.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            if comp.get("custom_id"):
                self.errors.add(
                    [*path, "custom_id"],
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
        elif style == PREMIUM_STYLE:
            if not comp.get("sku_id"):
                self.errors.add([*path, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required")
        else:
            if "custom_id" not in comp:
                self.errors.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            if comp.get("url"):
                self.errors.add([*path, "url"], "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons can have a url")
        if style != PREMIUM_STYLE and not label and not comp.get("emoji"):
            self.errors.add(
                [*path, "label"], "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required"
            )

    def _select(self, comp: JSON, path: list[Any]) -> None:
        _too_long(self.errors, [*path, "placeholder"], comp.get("placeholder"), MAX_PLACEHOLDER)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not (isinstance(lo, int) and 0 <= lo <= MAX_OPTIONS):
            self.errors.add([*path, "min_values"], "NUMBER_TYPE_MAX", f"int value should be <= {MAX_OPTIONS} and >= 0.")
        if not (isinstance(hi, int) and 1 <= hi <= MAX_OPTIONS):
            self.errors.add([*path, "max_values"], "NUMBER_TYPE_MAX", f"int value should be <= {MAX_OPTIONS} and >= 1.")
        elif isinstance(lo, int) and lo > hi:
            self.errors.add(
                [*path, "min_values"], "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be <= max_values"
            )
        if comp.get("type") != STRING_SELECT:
            return
        options = comp.get("options") or []
        if not 1 <= len(options) <= MAX_OPTIONS:
            self.errors.add(
                [*path, "options"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_OPTIONS} in length."
            )
        seen: set[str] = set()
        for i, opt in enumerate(options):
            where = [*path, "options", i]
            for key in ("label", "value"):
                if not opt.get(key):
                    self.errors.add([*where, key], "BASE_TYPE_REQUIRED", "This field is required")
            for key in ("label", "value", "description"):
                _too_long(self.errors, [*where, key], opt.get(key), MAX_OPTION_TEXT)
            value = opt.get("value")
            if value in seen:
                self.errors.add(
                    [*where, "value"],
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "The specified option value is already used",
                )
            seen.add(value)
        if isinstance(hi, int) and options and hi > len(options):
            self.errors.add(
                [*path, "max_values"],
                "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                f"max_values must be <= the number of options ({len(options)})",
            )

    _type_3 = _type_5 = _type_6 = _type_7 = _type_8 = _select

    def _type_4(self, comp: JSON, path: list[Any]) -> None:  # text input
        if comp.get("style") not in (1, 2):
            self.errors.add([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        _too_long(self.errors, [*path, "label"], comp.get("label"), MAX_LABEL_TEXT)
        _too_long(self.errors, [*path, "placeholder"], comp.get("placeholder"), 100)
        _too_long(self.errors, [*path, "value"], comp.get("value"), 4000)

    def _type_10(self, comp: JSON, path: list[Any]) -> None:  # text display
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            self.errors.add([*path, "content"], "BASE_TYPE_REQUIRED", "This field is required")
            return
        self.text_chars += len(content)

    def _media(self, media: Any, path: list[Any], *, attachment_only: bool = False) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        if not url:
            self.errors.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            return
        if url.startswith("attachment://"):
            if url.removeprefix("attachment://") not in self.attachments:
                self.errors.add(
                    [*path, "url"],
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"Attachment {url} was not uploaded with this message",
                )
        elif attachment_only:
            self.errors.add(
                [*path, "url"], "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY", "Only attachment:// URLs are allowed here"
            )
        elif not url.startswith(("http://", "https://")):
            self.errors.add(
                [*path, "url"], "URL_TYPE_INVALID_SCHEME", "Scheme must be one of ('http', 'https', 'attachment')."
            )

    def _type_11(self, comp: JSON, path: list[Any]) -> None:  # thumbnail
        self._media(comp.get("media"), [*path, "media"])
        _too_long(self.errors, [*path, "description"], comp.get("description"), 1024)

    def _type_12(self, comp: JSON, path: list[Any]) -> None:  # media gallery
        items = comp.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            self.errors.add(
                [*path, "items"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_GALLERY_ITEMS} in length."
            )
        for i, item in enumerate(items):
            self._media(item.get("media"), [*path, "items", i, "media"])
            _too_long(self.errors, [*path, "items", i, "description"], item.get("description"), 1024)

    def _type_13(self, comp: JSON, path: list[Any]) -> None:  # file
        self._media(comp.get("file"), [*path, "file"], attachment_only=True)

    def _type_14(self, comp: JSON, path: list[Any]) -> None:  # separator
        if comp.get("spacing", 1) not in (1, 2):
            self.errors.add([*path, "spacing"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")


def _has(body: JSON, key: str) -> bool:
    value = body.get(key)
    return value not in (None, "", [], {})


def check_message(
    body: JSON,
    *,
    flags: int,
    attachments: Iterable[str] = (),
    creating: bool = True,
    has_uploads: bool = False,
    existing_components: bool = False,
) -> JSON | None:
    """The 400 body Discord answers for this message body, or None. `flags` are the message's effective flags
    (an edit keeps the V2 flag), `attachments` the filenames the message will carry."""
    v2 = bool(flags & COMPONENTS_V2_FLAG)
    errors = FormErrors()
    if v2:
        for key, name in (
            ("content", "content"),
            ("embeds", "embeds"),
            ("sticker_ids", "sticker_ids"),
            ("poll", "poll"),
        ):
            if _has(body, key):
                errors.add(
                    [key],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
        if creating and not _has(body, "components"):
            return {"code": 50006, "message": "Cannot send an empty message"}
    if "components" in body and body["components"] is not None:
        _Checker(errors, v2=v2, attachments=attachments).run(body["components"], ["components"])
    if errors:
        return errors.body()
    if (
        creating
        and not v2
        and not (
            _has(body, "content")
            or _has(body, "embeds")
            or has_uploads
            or _has(body, "components")
            or _has(body, "sticker_ids")
            or _has(body, "poll")
        )
    ):
        return {"code": 50006, "message": "Cannot send an empty message"}
    return None


def check_modal(data: JSON) -> JSON | None:
    """Interaction callback type 9 data: title, custom_id, 1-5 rows / labels / text displays."""
    errors = FormErrors()
    title = data.get("title")
    if not title:
        errors.add(["data", "title"], "BASE_TYPE_REQUIRED", "This field is required")
    _too_long(errors, ["data", "title"], title, MAX_MODAL_TITLE)
    custom_id = data.get("custom_id")
    if not custom_id:
        errors.add(["data", "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
    _too_long(errors, ["data", "custom_id"], custom_id, MAX_CUSTOM_ID)
    components = data.get("components") or []
    if not components:
        errors.add(
            ["data", "components"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length."
        )
    _Checker(errors, v2=False, modal=True).run(components, ["data", "components"])
    return errors.body() if errors else None


def normalize(components: list[JSON], attachments: dict[str, JSON]) -> list[JSON]:
    """A copy with an `id` on every component (1, 2, ... in tree order, skipping ids the bot set) and
    `attachment://name` media resolved to the uploaded attachment (url, proxy_url, attachment_id...)."""
    out = copy.deepcopy(components)
    used = {c["id"] for c in walk(out) if isinstance(c.get("id"), int)}
    counter = 0
    for comp in walk(out):
        if comp.get("id") is None:
            counter += 1
            while counter in used:
                counter += 1
            comp["id"] = counter
        for media in _media_items(comp):
            url = media.get("url", "")
            if url.startswith("attachment://") and (att := attachments.get(url.removeprefix("attachment://"))):
                media.update(
                    url=att["url"],
                    proxy_url=att["proxy_url"],
                    content_type=att.get("content_type"),
                    attachment_id=att["id"],
                    loading_state=2,
                    flags=0,
                )
            elif url:
                media.setdefault("proxy_url", url)
                media.setdefault("loading_state", 0)
    return out


def _media_items(comp: JSON) -> Iterator[JSON]:
    kind = comp.get("type")
    if kind == THUMBNAIL and isinstance(comp.get("media"), dict):
        yield comp["media"]
    elif kind == FILE and isinstance(comp.get("file"), dict):
        yield comp["file"]
    elif kind == MEDIA_GALLERY:
        for item in comp.get("items") or []:
            if isinstance(item.get("media"), dict):
                yield item["media"]


def strings(components: Iterable[JSON]) -> Iterator[tuple[str, str]]:
    """(field, text) for every piece of text a member can see or a client can read in these components:
    custom ids, labels, values, placeholders, descriptions, text displays, urls, option texts."""
    for comp in walk(components):
        for key in ("custom_id", "label", "placeholder", "description", "content", "url", "value"):
            value = comp.get(key)
            if isinstance(value, str) and value:
                yield key, value
        emoji = comp.get("emoji")
        if isinstance(emoji, dict) and emoji.get("name"):
            yield "emoji", emoji["name"]
        for opt in comp.get("options") or []:
            for key in ("label", "value", "description"):
                if isinstance(opt.get(key), str) and opt[key]:
                    yield f"option.{key}", opt[key]
        for media in _media_items(comp):
            if media.get("url"):
                yield "media.url", media["url"]
        for item in comp.get("items") or []:
            if isinstance(item.get("description"), str) and item["description"]:
                yield "item.description", item["description"]
