"""Protobuf messages of the AndroidControl release, declared as descriptors (no protoc, no TensorFlow).

Two schemas: ``tf.train.Example`` (the TFRecord payload) and android_env's ``AndroidAccessibilityForest``
(the accessibility trees inside it). Only the fields we read are declared; unknown fields are skipped by
the parser, so the real release's extra fields do no harm.

>>> ex = make_example({"episode_id": [7], "goal": [b"Open settings"]})
>>> features = parse_example(ex)
>>> features["episode_id"], features["goal"]
([7], [b'Open settings'])
"""
from __future__ import annotations

from typing import Any, Sequence

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_TYPES = {
    "string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "int64": _F.TYPE_INT64, "int32": _F.TYPE_INT32,
    "bool": _F.TYPE_BOOL, "float": _F.TYPE_FLOAT,
}


def _message(file: descriptor_pb2.FileDescriptorProto, name: str, fields: Sequence[tuple], parent=None):
    """Declare message ``name`` with ``fields`` = (name, number, type, repeated[, packed]) tuples."""
    msg = (parent.nested_type if parent is not None else file.message_type).add(name=name)
    for spec in fields:
        fname, number, ftype, repeated = spec[:4]
        field = msg.field.add(name=fname, number=number,
                              label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
        if ftype in _TYPES:
            field.type = _TYPES[ftype]
        else:  # a message type, given by its fully qualified name
            field.type = _F.TYPE_MESSAGE
            field.type_name = ftype
        if len(spec) > 4 and spec[4]:
            field.options.packed = True
    return msg


def _build_pool() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()

    ex = descriptor_pb2.FileDescriptorProto(name="sftdata/tf_example.proto", package="sftdata.tf", syntax="proto3")
    _message(ex, "BytesList", [("value", 1, "bytes", True)])
    _message(ex, "FloatList", [("value", 1, "float", True, True)])
    _message(ex, "Int64List", [("value", 1, "int64", True, True)])
    feature = _message(ex, "Feature", [("bytes_list", 1, ".sftdata.tf.BytesList", False),
                                       ("float_list", 2, ".sftdata.tf.FloatList", False),
                                       ("int64_list", 3, ".sftdata.tf.Int64List", False)])
    feature.oneof_decl.add(name="kind")
    for f in feature.field:
        f.oneof_index = 0
    features = _message(ex, "Features", [("feature", 1, ".sftdata.tf.Features.FeatureEntry", True)])
    entry = _message(ex, "FeatureEntry", [("key", 1, "string", False), ("value", 2, ".sftdata.tf.Feature", False)],
                     parent=features)
    entry.options.map_entry = True
    _message(ex, "Example", [("features", 1, ".sftdata.tf.Features", False)])
    pool.Add(ex)

    a11y = descriptor_pb2.FileDescriptorProto(name="sftdata/a11y.proto", package="sftdata.a11y", syntax="proto3")
    _message(a11y, "ProtoRect", [("left", 1, "int32", False), ("top", 2, "int32", False),
                                 ("right", 3, "int32", False), ("bottom", 4, "int32", False)])
    _message(a11y, "Node", [
        ("unique_id", 1, "int64", False), ("bounds_in_screen", 2, ".sftdata.a11y.ProtoRect", False),
        ("class_name", 3, "string", False), ("content_description", 4, "string", False),
        ("hint_text", 5, "string", False), ("package_name", 6, "string", False), ("text", 7, "string", False),
        ("view_id_resource_name", 10, "string", False),
        ("is_checkable", 12, "bool", False), ("is_checked", 13, "bool", False),
        ("is_clickable", 14, "bool", False), ("is_editable", 15, "bool", False),
        ("is_enabled", 16, "bool", False), ("is_focusable", 17, "bool", False),
        ("is_focused", 18, "bool", False), ("is_long_clickable", 19, "bool", False),
        ("is_scrollable", 21, "bool", False), ("is_selected", 22, "bool", False),
        ("is_visible_to_user", 23, "bool", False), ("child_ids", 25, "int64", True, True),
        ("depth", 27, "int32", False), ("tooltip_text", 31, "string", False),
    ])
    _message(a11y, "Tree", [("nodes", 1, ".sftdata.a11y.Node", True)])
    _message(a11y, "Window", [("id", 3, "int32", False), ("tree", 11, ".sftdata.a11y.Tree", False)])
    _message(a11y, "Forest", [("windows", 1, ".sftdata.a11y.Window", True)])
    pool.Add(a11y)
    return pool


_POOL = _build_pool()
Example = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("sftdata.tf.Example"))
AccessibilityForest = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("sftdata.a11y.Forest"))


def parse_example(data: bytes) -> dict[str, list[Any]]:
    """Decode a serialized ``tf.train.Example`` into ``{feature name: list of values}``.

    Raises ``google.protobuf.message.DecodeError`` on malformed bytes.
    """
    example = Example.FromString(data)
    out: dict[str, list[Any]] = {}
    for key, feature in example.features.feature.items():
        kind = feature.WhichOneof("kind")
        out[key] = list(getattr(feature, kind).value) if kind else []
    return out


def make_example(features: dict[str, Sequence[Any]]) -> bytes:
    """Encode ``{name: values}`` as a serialized ``tf.train.Example``. Values of a feature must all be
    ``bytes`` (or ``str``, encoded as UTF-8), all ``int`` or all ``float``."""
    example = Example()
    for key, values in features.items():
        feature = example.features.feature[key]
        values = list(values)
        if values and all(isinstance(v, (bytes, str)) for v in values):
            feature.bytes_list.value.extend(v.encode("utf-8") if isinstance(v, str) else v for v in values)
        elif values and all(isinstance(v, bool) is False and isinstance(v, int) for v in values):
            feature.int64_list.value.extend(values)
        elif values and all(isinstance(v, (int, float)) for v in values):
            feature.float_list.value.extend(float(v) for v in values)
        elif not values:
            feature.bytes_list.SetInParent()
        else:
            raise TypeError(f"feature {key!r} mixes value types: {sorted({type(v).__name__ for v in values})}")
    return example.SerializeToString(deterministic=True)
