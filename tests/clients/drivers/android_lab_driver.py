"""Run androidlab answers the way Android-Lab's and MobileRL's evaluation loops hand them to their executors.

Neither project is on a package index, so their code is not installed here. This driver follows, step by step,
the path a model's answer takes in their sources (read at THUDM/Android-Lab 373fc1d and THUDM/MobileRL
82f3b7e), written anew, with an executor whose operations record what they would do on a device:

* Android-Lab (``evaluation/evaluation.py`` -> ``get_code_snippet`` -> ``TextOnlyExecutor.__call__``): the last
  line of the first ```-fenced block, or the whole answer when there is none; of several lines, the one that
  holds ``"Action: "``; leading zeros of numbers removed; then ``exec`` with ``do`` and ``finish`` in scope.
  ``do`` accepts Tap, Type, Swipe, Enter, Home, Back, Long Press, Wait, Launch and Call_API.
* MobileRL (``android_lab/evaluation/evaluation.py`` -> ``TextOnlyExecutor_v4.__call__``): the content of
  ``<answer>`` (or ``<ans>``) after ``</think>``, else the whole answer; then ``get_code_snippet`` as above; the
  quotes inside a ``text=``/``message=`` string escaped again and newlines written as ``\\n``; then ``exec``.
  With the shipped inference configs (``is_relative_bbox: true``) a box none of whose numbers exceeds 999 is
  read as thousandths of the screen.

``do`` and ``finish`` are the executors' (``android_lab_executor``): ``read`` reports the call as the executor
records it (``call``: the box the device would be touched at) and what the phone would do (``executed``).

Usable as a module (``run(path, answer, width, height, relative)``) or as a filter: stdin JSON lines ``{"id",
"answer", "path", "width", "height", "relative"}``, stdout ``{"id", "ok", "error", "read"}``.
"""
import re

from android_lab_executor import RecordingExecutor

DO_ACTIONS = ("Tap", "Type", "Swipe", "Enter", "Home", "Back", "Long Press", "Wait", "Launch", "Call_API")
MOBILERL_ACTIONS = DO_ACTIONS + ("Press Back",)
_FENCED = re.compile(r"```.*?([\s\S]+?)```")
_THINK_ANSWER = [re.compile(p, re.S) for p in (r"^<think>(.*?)</think>\n<ans>(.*?)</ans>\s*$",
                                               r"^<think>(.*?)</think>\n<ans>(.*?)$",
                                               r"^<think>(.*?)</think>\n<answer>(.*?)</answer>\s*$",
                                               r"^<think>(.*?)</think>\n<answer>(.*?)$",
                                               r"^<think>(.*?)</think>(.*?)$")]


def code_snippet(content: str) -> str:
    """The last line of the first fenced block, else the content unchanged (both projects' get_code_snippet)."""
    found = _FENCED.search(content)
    return found.group(1).strip().split("\n")[-1] if found else content


def _one_line(snippet: str) -> str:
    if len(snippet.split("\n")) > 1:
        for line in snippet.split("\n"):
            if "Action: " in line:
                return line
    return snippet


def _no_leading_zeros(text: str) -> str:
    return re.sub(r"\b0+(\d)", r"\1", text)


def run(path: str, answer: str, width: int, height: int, relative: bool = False) -> dict:
    """Execute ``answer`` along ``path`` ("android-lab" or "mobilerl"): the call it made and what it did."""
    if path == "android-lab":
        code = _no_leading_zeros(_one_line(code_snippet(answer)).strip())
        executor = RecordingExecutor(DO_ACTIONS, width, height, relative, path)
    elif path == "mobilerl":
        line = answer
        for pattern in _THINK_ANSWER:
            found = pattern.match(answer)
            if found:
                line = found.group(2).strip()
                break
        code = _one_line(code_snippet(line))
        if any(f'do(action="{a}"' in code for a in ("Tap", "Swipe", "Long Press")):
            code = _no_leading_zeros(code.strip())
        else:
            code = code.strip()
        if "message=" in code or "text=" in code:
            quoted = re.search(r'(message|text)="(.*?)"\)', code, re.S)
            if quoted:
                escaped = quoted.group(2).replace('"', '\\"')
                code = re.sub(r'(message|text)=".*?"\)', lambda m: f'{quoted.group(1)}="{escaped}")', code)
        code = code.replace("\n", "\\n")
        executor = RecordingExecutor(MOBILERL_ACTIONS, width, height, relative, path)
    else:
        raise ValueError(f"unknown executor path {path!r}")
    exec(code, {}, {"do": executor.do, "finish": executor.finish})  # noqa: S102 - what both executors do
    if executor.done is None:
        raise ValueError("the code performed no operation")
    return {"call": executor.done, "executed": executor.ops}


def main() -> None:
    from driver_io import serve

    serve("android-lab/mobilerl executor path", "373fc1d/82f3b7e",
          lambda row: run(row["path"], row["answer"], row["width"], row["height"], row.get("relative", False)))


if __name__ == "__main__":
    main()
