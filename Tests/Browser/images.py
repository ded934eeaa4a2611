"""Pictures made at test time: photos drawn with Pillow, barcodes drawn by Debian's zint,
and the hostile files an upload must refuse. Nothing is checked into the repository."""

import io
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

RED = (220, 30, 30)
BLUE = (30, 60, 220)
GREEN = (40, 170, 60)
YELLOW = (240, 200, 40)

# What the server names a stored photo: 32 hex digits, the size, the format.
PHOTO_FILE = re.compile(r"^[0-9a-f]{32}-(512|128)\.(jpg|webp)$")


def jpeg_bytes(image: Image.Image, quality=90) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=quality)
    return out.getvalue()


def solid_photo(path: Path, colour, size=(800, 600)) -> Path:
    """A JPEG of one colour (with a white stripe, so it is not entirely flat)."""
    image = Image.new("RGB", size, colour)
    ImageDraw.Draw(image).rectangle([0, size[1] * 0.45, size[0], size[1] * 0.55], fill=(250, 250, 250))
    path.write_bytes(jpeg_bytes(image))
    return path


def split_photo(path: Path, left=RED, right=BLUE, size=(900, 450)) -> Path:
    """A landscape JPEG, left half `left`, right half `right`: the centred square is half of each."""
    image = Image.new("RGB", size, right)
    ImageDraw.Draw(image).rectangle([0, 0, size[0] // 2 - 1, size[1]], fill=left)
    path.write_bytes(jpeg_bytes(image, quality=95))
    return path


def still_life(path: Path, background, things, size=(1200, 900)) -> Path:
    """Something that looks a little like a photo of an object on a table, for screenshots:
    a vertical gradient, a table edge and a few rounded shapes in `things` colours."""
    width, height = size
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    for y in range(height):
        shade = 0.75 + 0.25 * y / height
        draw.line([(0, y), (width, y)], fill=tuple(int(c * shade) for c in background))
    draw.rectangle([0, int(height * 0.72), width, height], fill=(150, 110, 70))
    for i, colour in enumerate(things):
        x = int(width * (0.3 + 0.2 * i)) - 110
        draw.rounded_rectangle([x, int(height * 0.28) + 20 * i, x + 220, int(height * 0.78)], radius=40, fill=colour,
                               outline=(40, 40, 40), width=6)
        draw.ellipse([x + 60, int(height * 0.4), x + 160, int(height * 0.52)], fill=(250, 250, 250))
    path.write_bytes(jpeg_bytes(image))
    return path


def barcode_png(path: Path, digits: str, symbology=13) -> Path:
    """A barcode image drawn by zint (13 = EAN-13)."""
    if not shutil.which("zint"):
        pytest.fail("zint is not installed (Debian package zint; `make test-deps` installs it)")
    subprocess.run(["zint", "-b", str(symbology), "--scale=3", "-o", str(path), "-d", digits],
                   check=True, capture_output=True, timeout=120)
    return path


def plain_png(path: Path, colour=(200, 200, 200), size=(300, 200)) -> Path:
    Image.new("RGB", size, colour).save(path, "PNG")
    return path


def pixel_bomb_png(width=10000, height=10000) -> bytes:
    """A valid 1-bit PNG of 100 megapixels that is only a few KB: every row is zero."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" * (1 + (width + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def truncated_jpeg() -> bytes:
    """The first 40% of a real JPEG: the header is fine, the picture stops."""
    image = Image.new("RGB", (640, 480))
    draw = ImageDraw.Draw(image)
    for x in range(0, 640, 16):
        draw.line([(x, 0), (640 - x, 480)], fill=(x % 256, 120, 255 - x % 256), width=9)
    whole = jpeg_bytes(image)
    return whole[: len(whole) * 2 // 5]


NOT_A_PHOTO = "This file is not a photo Zaiko can read. Use JPEG, PNG, WebP or HEIC."
DAMAGED = "This photo is damaged or cut short. Take it again."
TOO_MANY_PIXELS = "This picture has too many pixels (more than 50 megapixels). Use a smaller one."
EMPTY = "The file is empty. Choose the photo again."

# name, file name, declared type, bytes, message the page must show.
HOSTILE = [
    ("text-as-jpg", "holiday.jpg", "image/jpeg", b"Shopping list: milk, eggs, natto\n" * 20, NOT_A_PHOTO),
    ("svg-with-script", "drawing.svg", "image/svg+xml",
     b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(document.cookie)</script>'
     b'<rect width="100" height="100" fill="red"/></svg>', NOT_A_PHOTO),
    ("html-as-png", "photo.png", "image/png",
     b"<!doctype html><html><body><script>fetch('/settings')</script>hello</body></html>", NOT_A_PHOTO),
    ("truncated-jpeg", "cut.jpg", "image/jpeg", truncated_jpeg(), DAMAGED),
    ("pixel-bomb", "bomb.png", "image/png", pixel_bomb_png(), TOO_MANY_PIXELS),
    ("empty", "empty.jpg", "image/jpeg", b"", EMPTY),
]


def photo_files(data_dir: Path) -> set[str]:
    folder = data_dir / "photos"
    return {p.name for p in folder.iterdir()} if folder.exists() else set()


def upload_files(data_dir: Path) -> set[str]:
    folder = data_dir / "uploads"
    return {p.name for p in folder.iterdir()} if folder.exists() else set()


def mean_colour(data: bytes, box=None) -> tuple:
    """The average (r, g, b) of an image, or of `box` (left, top, right, bottom) in it."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    if box:
        image = image.crop(box)
    pixels = image.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
    return tuple(pixels)


def is_close(colour, target, tolerance=50) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))
