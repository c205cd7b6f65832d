"""What the simulated apps contain: launcher icons, shop tabs and products, settings rows, chats, photos.

>>> product("tab:手机", 0)["kind"], len(CONVOS), N_PHOTOS
('phone', 12, 30)
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .style import BLUE, RED

if TYPE_CHECKING:
    from .state import State

# label on the launcher (= open_app name), app, icon colour, icon kind
LAUNCHER = [("商城", "mall", RED, "cart"), ("Settings", "settings", (95, 99, 104), "gear"),
            ("相册", "gallery", (251, 188, 4), "photo"), ("信息", "messages", BLUE, "chat"),
            ("Calendar", None, (66, 133, 244), "grid"), ("相机", None, (60, 64, 67), "camera"),
            ("Maps", None, (52, 168, 83), "star"), ("音乐", None, (234, 67, 53), "play"),
            ("Phone", None, (30, 142, 62), "phone"), ("Chrome", None, (219, 68, 55), "search"),
            ("邮件", None, (26, 115, 232), "archive"), ("Contacts", None, (0, 137, 123), "user")]
TABS = ["推荐", "手机", "耳机", "家居", "运动", "数码配件", "Beauty"]
KINDS = {"手机": "phone", "耳机": "earbuds", "蓝牙耳机": "earbuds", "家居": "cup", "保温杯": "cup", "运动": "shoe",
         "运动鞋": "shoe", "机械键盘": "keyboard", "数码配件": "keyboard", "双肩包": "bag", "Beauty": "bag"}
NOUNS = {"phone": "5G 智能手机", "earbuds": "无线蓝牙耳机 降噪", "cup": "不锈钢保温杯 500ml", "shoe": "缓震跑步鞋 Running",
         "keyboard": "机械键盘 RGB", "bag": "通勤双肩包"}
BRANDS = ["Sony", "小米", "Anker", "华为", "Apple", "漫步者", "Nike", "罗技", "Lenovo", "OPPO", "膳魔师", "Samsonite"]
SETTINGS_ROWS = [("Wi-Fi", "Connected to HomeNet-5G"), ("Bluetooth", None), ("Airplane mode", None),
                 ("Connected devices", "Bluetooth, pairing"), ("Apps", "Recent apps, default apps"),
                 ("Notifications", "Notification history, conversations"), ("Battery", "85% · Should last until 11 PM"),
                 ("Storage", "61% used · 50 GB free"), ("Sound & vibration", "Volume, haptics, Do Not Disturb"),
                 ("Display", "Dark theme, font size, brightness"), ("Dark theme", None),
                 ("Wallpaper & style", "Colors, themed icons"), ("Accessibility", "Display, interaction, audio"),
                 ("Security & privacy", "App security, device lock"), ("Location", None),
                 ("Passwords & accounts", "Saved passwords, autofill"),
                 ("Digital Wellbeing", "Screen time, app timers"),
                 ("System", "Languages, gestures, time, backup"), ("About phone", "Pixel 7")]
SUBPAGES = {"Display": [("Brightness level", "62%"), ("Adaptive brightness", None), ("Dark theme", None),
                        ("Screen timeout", "After 30 seconds"), ("Font size", "Default"), ("Auto-rotate screen", None)],
            "Battery": [("Battery Saver", None), ("Battery usage", "Since last full charge"),
                        ("Adaptive Battery", None), ("Battery percentage", None)],
            "Sound & vibration": [("Media volume", "60%"), ("Do Not Disturb", None), ("Vibrate for calls", None),
                                  ("Phone ringtone", "Pixel Sounds")]}
CONVOS = [("妈妈", "晚上回家吃饭吗？", "18:20"), ("Alice Chen", "See you at the station at 3pm", "17:02"),
          ("快递驿站", "您的包裹已到驿站，取件码 8-2-1034", "15:47"), ("张伟", "周末一起去爬山吗？", "昨天"),
          ("Bank of China", "Your verification code is 482913", "昨天"), ("李娜", "照片收到了，谢谢！", "周一"),
          ("Project Team", "Tom: 明天10点开会 meeting at 10", "周一"), ("10086", "您本月剩余流量 2.3GB", "6月8日"),
          ("王老师", "下周三家长会，请准时参加", "6月7日"), ("David", "Thanks, talk soon!", "6月5日"),
          ("刘洋", "好的，没问题", "6月3日"), ("Dentist Clinic", "Reminder: appointment Jun 14 9:30", "6月1日")]
N_PHOTOS, N_PRODUCTS = 30, 16


def product(list_key: str, i: int) -> dict:
    """The ``i``-th product of a list (``"tab:<name>"`` or a search query), deterministic.

    >>> product("保温杯", 2) == product("保温杯", 2)
    True
    """
    rng = random.Random(f"{list_key}:{i}")
    brand = rng.choice(BRANDS)
    if list_key.startswith("tab:"):
        kind = KINDS.get(list_key[4:]) or rng.choice(sorted(NOUNS))
        name = f"{brand} {NOUNS[kind]}"
    else:  # search results: named after the query
        kind = KINDS.get(max((k for k in KINDS if k in list_key), key=len, default=""), "bag")
        name = f"{brand} {list_key} {rng.choice(['Pro', '2024新款', 'Lite', '旗舰款', 'Max', '经典款'])}"
    price = rng.choice([39, 59, 89, 129, 199, 299, 459, 699, 1299, 2499, 3999])
    sale = rng.random() < .5
    return {"name": name, "kind": kind, "price": price, "old": int(price * rng.uniform(1.2, 1.6)) if sale else 0,
            "tag": rng.choice(["限时特价", "-30%", "SALE", "秒杀"]) if sale else "", "sold": rng.randint(2, 980) / 10,
            "color": rng.choice([RED, BLUE, (52, 168, 83), (123, 31, 162), (255, 143, 0), (84, 110, 122)])}


def list_key(st: State) -> str:
    """The product list ``st`` shows: its search query, else ``"tab:<tab name>"``.

    >>> from .state import State
    >>> list_key(State("mall", "home", tab=1))
    'tab:手机'
    """
    return st.query or f"tab:{TABS[st.tab]}"

