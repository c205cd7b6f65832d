"""The browser browser-use's actions drive, as a recorder: what the page would do, not done (importable in
either browser-use virtualenv).

* 0.1.x (:class:`RecordingContext`): its controller's actions call a Playwright ``BrowserContext`` wrapper; this
  one answers those calls (the session's cached selector map, the current page's ``goto``/``evaluate``/frames,
  ``_click_element_node``, ``_input_text_element_node``, ``go_back``, ``create_new_tab``);
* 0.7 and later (:class:`RecordingSession`): its tools dispatch events on the browser session's bubus
  ``EventBus``; this session's bus has recording handlers where the watchdogs would act (``ClickElementEvent``,
  ``TypeTextEvent``, ``SelectDropdownOptionEvent``, ``ScrollEvent``, ``NavigateToUrlEvent``, ``GoBackEvent``).

The selector map holds the listed elements under the numbers the prompt gave them (``first``: 0 or 1);
``ops`` records ``click``/``input``/``select{index}`` (the 0-based listing position), ``scroll{direction}``,
``goto{url}``, ``new_tab{url}``, ``back{}`` and ``key{key}``.
"""
from __future__ import annotations

import re
from types import SimpleNamespace


class _Recorder:
    def __init__(self, screen: dict, first: int):
        self.ops: list[dict] = []
        self.url = screen.get("url") or "about:blank"
        self.listed, self.first = screen["listed"], first

    def did(self, op: str, **args) -> None:
        self.ops.append({"op": op, **args})


class RecordingContext(_Recorder):
    """browser-use 0.1.x's ``BrowserContext`` as its controller uses it."""

    def __init__(self, screen: dict, first: int):
        from browser_use.dom.views import DOMElementNode, DOMTextNode

        super().__init__(screen, first)
        self.nodes = {}
        for position, item in enumerate(self.listed):
            node = DOMElementNode(is_visible=True, parent=None, tag_name=item["tag"] or "div",
                                  xpath=f"html/body/*[{position + 1}]", attributes=dict(item["attrs"]), children=[],
                                  is_interactive=True, is_top_element=True, highlight_index=position + first)
            node.children.append(DOMTextNode(is_visible=True, parent=node, text=item["text"]))
            self.nodes[position + first] = node
        self.page = SimpleNamespace(
            goto=self._goto, wait_for_load_state=self._nothing, evaluate=self._evaluate, url=self.url,
            keyboard=SimpleNamespace(press=self._press), frames=[SimpleNamespace(
                url=self.url, evaluate=self._dropdown, locator=lambda xpath: SimpleNamespace(
                    nth=lambda n: SimpleNamespace(select_option=self._selector(xpath))))])
        state = SimpleNamespace(selector_map=self.nodes)
        self.session = SimpleNamespace(cached_state=state, context=SimpleNamespace(pages=[self.page]))
        self.config = SimpleNamespace(wait_between_actions=0)

    def _position(self, xpath: str) -> int:
        return int(re.fullmatch(r"html/body/\*\[(\d+)\]", xpath.lstrip("/")).group(1)) - 1

    async def _nothing(self, *args, **kwargs) -> None:
        return None

    async def _goto(self, url: str) -> None:
        self.did("goto", url=url)

    async def _evaluate(self, script: str):
        moved = re.fullmatch(r"window\.scrollBy\(0, (-?)[\w.]+\);", script)
        if moved is None:
            self.did("script", script=script[:80])
        else:
            self.did("scroll", direction="up" if moved.group(1) else "down")

    async def _press(self, keys: str) -> None:
        self.did("key", key=keys)

    async def _dropdown(self, script: str, xpath: str) -> dict:
        """The page's answer to the controller's dropdown lookup: is the node at ``xpath`` a select?"""
        node = self.nodes[self._position(xpath) + self.first]
        found = node.tag_name == "select"
        return {"found": found, "tagName": node.tag_name.upper(), "id": node.attributes.get("id", ""),
                "error": None if found else f"Found element but it's a {node.tag_name}, not a SELECT"}

    def _selector(self, xpath: str):
        async def select_option(label: str, timeout: int | None = None) -> list[str]:
            self.did("select", index=self._position(xpath), text=label)
            return [label]
        return select_option

    async def get_session(self):
        return self.session

    async def get_selector_map(self) -> dict:
        return self.nodes

    async def get_current_page(self):
        return self.page

    async def remove_highlights(self) -> None:
        return None

    async def is_file_uploader(self, node, max_depth: int = 3, current_depth: int = 0) -> bool:
        return node.tag_name == "input" and node.attributes.get("type") == "file"

    async def _click_element_node(self, node) -> None:
        self.did("click", index=node.highlight_index - self.first)

    async def _input_text_element_node(self, node, text: str) -> None:
        self.did("input", index=node.highlight_index - self.first, text=text)

    async def go_back(self) -> None:
        self.did("back")

    async def create_new_tab(self, url: str | None = None) -> None:
        self.did("new_tab", url=url)

    async def switch_to_tab(self, page_id: int) -> None:
        self.did("switch_tab", tab=page_id)


class RecordingSession(_Recorder):
    """browser-use 0.7+'s ``BrowserSession`` as its tools use it, with recording event handlers on its bus."""

    def __init__(self, screen: dict, first: int):
        from bubus import EventBus
        from browser_use.browser import events
        from browser_use.dom.views import EnhancedDOMTreeNode, NodeType

        super().__init__(screen, first)
        self.nodes = {position + first: EnhancedDOMTreeNode(
            node_id=position + 1, backend_node_id=position, node_type=NodeType.ELEMENT_NODE,
            node_name=(item["tag"] or "div").upper(), node_value="", attributes=dict(item["attrs"]),
            is_scrollable=False, is_visible=True, absolute_position=None, target_id="page", frame_id=None,
            session_id=None, content_document=None, shadow_root_type=None, shadow_roots=None, parent_node=None,
            children_nodes=[], ax_node=None, snapshot_node=None) for position, item in enumerate(self.listed)}
        self.event_bus = EventBus(name="RecordingSession")
        on = self.event_bus.on
        on(events.ClickElementEvent, lambda e: self.did("click", index=e.node.backend_node_id))
        on(events.TypeTextEvent, lambda e: self.did("input", index=e.node.backend_node_id, text=e.text))
        on(events.SelectDropdownOptionEvent, self._select)
        on(events.ScrollEvent, lambda e: self.did("scroll", direction=e.direction))
        on(events.NavigateToUrlEvent, lambda e: self.did("new_tab" if e.new_tab else "goto", url=e.url))
        on(events.GoBackEvent, lambda e: self.did("back"))
        on(events.SendKeysEvent, lambda e: self.did("key", key=e.keys))
        self.cdp_client, self.agent_focus_target_id = None, None

    def _select(self, event) -> dict:
        self.did("select", index=event.node.backend_node_id, text=event.text)
        return {"success": "true", "message": f"Selected option: {event.text}"}

    async def get_element_by_index(self, index: int):
        return self.nodes.get(index)

    async def get_tabs(self) -> list:
        return []

    async def highlight_interaction_element(self, node) -> None:
        return None

    async def get_current_page_url(self) -> str:
        return self.url

    async def get_browser_state_summary(self, include_screenshot: bool = False):
        page = SimpleNamespace(_root=True, llm_representation=lambda: "(the recorded page)")
        return SimpleNamespace(url=self.url, dom_state=page)

    async def get_or_create_cdp_session(self):
        raise RuntimeError("the recording session has no CDP connection")  # scroll: one 1000 px page
