"""The Label Studio labeling config of a review project: one task per episode, one block per step.

Each step block (a ``Repeater`` over the task's ``steps``) shows the clean screenshot, the annotator image (the
action drawn on it), the recorded action, the judge's verdict and the rules check, and asks for a decision
(``decision_<i>``: accept / edit / reject) with the reasoning and the function as editable text areas
(``reasoning_<i>``, ``function_<i>``, pre-filled with the generated item). Import reads these names back.

>>> xml = labeling_config()
>>> '<Repeater on="$steps" indexFlag="{{idx}}"' in xml and 'name="decision_{{idx}}"' in xml
True
"""
from __future__ import annotations

DECISIONS = ("accept", "edit", "reject")
DECISION, REASONING, FUNCTION = "decision_", "reasoning_", "function_"


def labeling_config() -> str:
    """The labeling config XML (Label Studio's tags: View, Header, Text, Image, Repeater, Choices, TextArea)."""
    choices = "\n".join(f'          <Choice value="{d}"/>' for d in DECISIONS)
    return f"""<View>
  <Header value="$goal"/>
  <Text name="episode" value="$episode_info"/>
  <Text name="judge_episode" value="$judge_episode"/>
  <Repeater on="$steps" indexFlag="{{{{idx}}}}">
    <View style="border-top: 2px solid #888; margin-top: 12px; padding-top: 6px">
      <Header value="$steps[{{{{idx}}}}].title" size="5"/>
      <View style="display: flex; gap: 12px">
        <View style="flex: 1">
          <Image name="screenshot_{{{{idx}}}}" value="$steps[{{{{idx}}}}].screenshot" maxWidth="360px"/>
        </View>
        <View style="flex: 1">
          <Image name="annotator_{{{{idx}}}}" value="$steps[{{{{idx}}}}].annotator" maxWidth="360px"/>
        </View>
        <View style="flex: 2">
          <Text name="action_{{{{idx}}}}" value="$steps[{{{{idx}}}}].action"/>
          <Text name="judge_{{{{idx}}}}" value="$steps[{{{{idx}}}}].judge"/>
          <Text name="rules_{{{{idx}}}}" value="$steps[{{{{idx}}}}].rules"/>
          <Choices name="{DECISION}{{{{idx}}}}" toName="screenshot_{{{{idx}}}}" choice="single" showInline="true">
{choices}
          </Choices>
          <TextArea name="{REASONING}{{{{idx}}}}" toName="screenshot_{{{{idx}}}}" value="$steps[{{{{idx}}}}].reasoning"
                    editable="true" maxSubmissions="1" rows="4" placeholder="reasoning"/>
          <TextArea name="{FUNCTION}{{{{idx}}}}" toName="screenshot_{{{{idx}}}}" value="$steps[{{{{idx}}}}].function"
                    editable="true" maxSubmissions="1" rows="2" placeholder="function (JSON)"/>
        </View>
      </View>
    </View>
  </Repeater>
</View>
"""
