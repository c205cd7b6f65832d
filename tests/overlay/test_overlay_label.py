"""Label text: seed 002 wording, real CJK glyphs (never tofu), wrapping, and a clear error without a font."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from sftdata.model import Action
from sftdata.overlay import FontMissingError, MarkStyle, action_label, annotator_image, detect_marks
from sftdata.overlay import fonts
from sftdata.overlay.draw import layout_label

W, H = 1080, 2400


@pytest.mark.parametrize("action, text", [
    (Action("click", point=(110, 506)), "CLICK [102,211]"),
    (Action("long_press", point=(540, 1200)), "LONG PRESS [500,500]"),
    (Action("swipe", point=(540, 1699), end=(540, 900)), "SWIPE [500,708] to [500,375]"),
    (Action("input", text="北京 天气"), "INPUT 北京 天气"),
    (Action("open_app", app="Zoho Meeting"), "OPEN APP Zoho Meeting"),
    (Action("back"), "BACK"), (Action("home"), "HOME"), (Action("wait"), "WAIT"), (Action("done"), "DONE"),
])
def test_action_label_uses_seed_002_text_form(action, text):
    assert action_label(action, W, H) == text


def _label_ink(text: str) -> np.ndarray:
    img = annotator_image(Image.new("RGB", (W, H), "white"), Action("input", text=text))
    arr = np.asarray(img)[:200].astype(int)
    return (arr[..., 0] - np.maximum(arr[..., 1], arr[..., 2])) > 100


def test_chinese_label_renders_real_glyphs():
    a, b = _label_ink("你好世界"), _label_ink("再见朋友")
    assert a.sum() > 3000 and b.sum() > 3000           # plenty of ink
    cjk = np.s_[:, 180:]                              # past "INPUT "
    assert (a[cjk] ^ b[cjk]).sum() > 0.4 * (a[cjk] | b[cjk]).sum()  # different strings, different shapes
    font = fonts.load_font(42)
    assert all(fonts.has_glyph(font, ch) for ch in "你好世界再见朋友")
    assert fonts.renders_cjk(fonts.find_cjk_font())


def test_a_font_without_cjk_is_recognised_as_tofu():
    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not dejavu.is_file():
        pytest.skip("DejaVuSans not installed (apt-get install fonts-dejavu-core)")
    assert not fonts.renders_cjk(fonts.FontSpec(str(dejavu)))
    font = ImageFont.truetype(str(dejavu), 42)
    assert not fonts.has_glyph(font, "你") and fonts.has_glyph(font, "A")
    # tofu boxes are identical for different characters; our labels are not
    assert bytes(font.getmask("你")) == bytes(font.getmask("好"))


def test_fixture_label_look_is_matched():
    """Red text with a white outline over the status bar, cap top at about (24, 21) like the fixtures."""
    img = annotator_image(Image.new("RGB", (W, H), (30, 30, 30)), Action("back"))
    arr = np.asarray(img).astype(int)
    red = (arr[..., 0] > 200) & (arr[..., 1] < 60)
    white = (arr > 220).all(axis=2)
    rows, cols = np.nonzero(red)
    assert 20 <= rows.min() <= 26 and 50 <= rows.max() <= 60 and 24 <= cols.min() <= 32
    assert 90 <= cols.max() - cols.min() <= 125  # "BACK" is 107 px wide in the fixtures
    assert white[:80].sum() > 300                 # the outline
    assert img.getpixel((500, 1200)) == (30, 30, 30)


def test_long_input_wraps_then_shrinks_to_fit():
    style = MarkStyle().resolve(W)
    font, lines = layout_label("INPUT " + "一段很长的中文输入文本，" * 4, W, style)
    assert 1 < len(lines) <= 3 and font.size == 42
    font, lines = layout_label("INPUT " + "一段很长的中文输入文本，" * 30, W, style)
    assert len(lines) <= 3 and font.size < 42
    draw = ImageDraw.Draw(Image.new("RGB", (W, 10)))
    assert all(draw.textlength(line, font=font) <= W - 2 * 24 for line in lines)
    marked = annotator_image(Image.new("RGB", (W, H), "white"), Action("input", text="很长的中文 " * 40))
    ink = np.asarray(marked).astype(int)
    red = (ink[..., 0] - ink[..., 1]) > 100
    assert np.flatnonzero(red.any(axis=0)).max() < W - 10
    rows = np.flatnonzero(red.any(axis=1))
    marks = detect_marks(marked)
    assert marks.label_band is not None  # the band spans all three lines
    assert abs(marks.label_band[0] - rows.min()) <= 3 and abs(marks.label_band[1] - rows.max()) <= 3
    assert marks.circle is None and marks.arrow is None


def test_missing_cjk_font_raises_with_install_hint(monkeypatch):
    monkeypatch.setattr(fonts, "_candidates", lambda: [])
    fonts.find_cjk_font.cache_clear()
    fonts.load_font.cache_clear()
    try:
        with pytest.raises(FontMissingError) as err:
            annotator_image(Image.new("RGB", (W, H)), Action("input", text="你好"))
        assert "fonts-noto-cjk" in str(err.value) and "fonts-wqy-microhei" in str(err.value)
    finally:
        monkeypatch.undo()
        fonts.find_cjk_font.cache_clear()
        fonts.load_font.cache_clear()
    assert fonts.find_cjk_font().path


def test_fontconfig_answer_without_chinese_is_not_trusted(monkeypatch):
    """fc-match ':lang=zh' answers DejaVuSans on a machine without CJK fonts; that must not count."""
    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not Path(dejavu).is_file():
        pytest.skip("DejaVuSans not installed (apt-get install fonts-dejavu-core)")
    monkeypatch.setattr(fonts, "_candidates", lambda: [fonts.FontSpec(dejavu)])
    fonts.find_cjk_font.cache_clear()
    try:
        with pytest.raises(FontMissingError):
            fonts.find_cjk_font()
    finally:
        monkeypatch.undo()
        fonts.find_cjk_font.cache_clear()
        fonts.load_font.cache_clear()
