"""moto's DynamoDB, made to cost what a request touches rather than what the table holds or moto re-derives.

moto backs up every table a transaction names with a deep copy before applying it, so one transaction
costs time in proportion to the whole table (about 0.16 ms per stored item here: 5 s per transaction at
10,000 schedules). DynamoDB's cost does not grow with the table, and a benchmark must not measure moto's
backup. This keeps moto's transaction code as it is and changes only the backup: the items the transaction
names are copied before it runs and put back if it is cancelled, which restores the same state.

Other costs are moto's own, paid several times per fire: an UpdateExpression is parsed again on every request
(twice per update: once to check it, once to apply it), although the parsed form is never changed (moto's
validator works on a copy), so it is parsed once per distinct text; and that copy is a generic deepcopy of the
parsed tree, made here by unpickling the tree pickled once when it was parsed, which gives the same tree
several times faster. A DynamoDB answer is already in its wire form (attribute values as JSON), yet moto walks
the botocore output shape to write it: when it holds only strings, integers, booleans, lists and objects, it
is written with `json.dumps`, which gives the same JSON (a GetItem of a schedule cost 4 ms the long way). A
ConditionExpression's tokens are read once per distinct text (the tokens depend on the text alone; names and
values are applied after), and a condition with the same names and values is parsed once (moto parses each
twice per request: to check the names it uses, then to apply it); its key holds the values of the placeholders
the text names, not every value of the request (an update's values, written with the item, cost more to key
than the condition). moto's list of its own service folders, which its server reads from disk on every
request to route it, is read once, and so is the list of a response class's methods, which it reads (by
`inspect.getmembers`) to find each request's action.

EventBridge's delivery of an event to a target reads eight JSON paths from it (its default input template)
and builds a new path parser for each, every time: a path is parsed once per distinct text (a parsed path is
never changed).

moto checks an update against the stored item in ten passes over the parsed tree, and each pass asks, of every
node, whether it is an instance of the classes the pass handles: those classes use `abc.ABCMeta`, whose check is
slow, and the pass builds its table of classes anew for each node. The passes are the same, in the same order,
calling the same hooks; only the answer to "is a node of this type handled by this pass, and by which entry" is
kept per pair of types (moto registers no virtual subclasses, so the answer depends on the types alone). The
first three passes (at most one clause of each kind, no overlapping paths, no key attribute updated) read only
the parsed tree, the attribute names and the table's key names, and hand back the tree unchanged: once they
have passed for a text, its names and a table's keys, they are not run again for the same three (a text they
refuse is checked, and refused, every time).

An update first deep-copies the item it starts from, which moto reads only to write the table's stream record:
for a table without a stream (every table of the project) the copy is not made.

moto checks an item's size (DynamoDB's 400 KB) whenever an attribute is set, over every attribute of the item,
and its size of a map builds a new value for every nested value at every level to ask its size: the same sum
is taken over the values as they are (the same size, or the same error, for every kind of value).

moto's scan of a table sorts every item by comparing key attribute objects, deep-copies every item before it
applies the FilterExpression, and takes each item's size twice: the reconciler's daily scan, which filters the
run records out, cost more each day of a long clock move. The same items are read in the same order, with the
same pages (Limit and moto's 1 MB), counts and errors, but sorted by their key values, sized once, and copied
only when the filter keeps them (a scan of an index, or with the legacy ScanFilter, is moto's own).

A stream's GetRecords answer carries each record's old and new item, in DynamoDB JSON: moto writes it by
walking the botocore shape of every attribute value (about 6 ms a call in the sandbox's storm, where the
projector reads the stream after every invocation). When the records are plain JSON but for their creation
time, they are written with `json.dumps`, the time in epoch seconds as moto's serializer writes it.

Installed by the sandbox's moto server (so a clock move over weeks does not slow down as runs pile up in the
table) and by the bench's processes; the integration tests run moto unchanged.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import pickle
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import datetime
from typing import Any

_installed = False

# The one moto release these replacements were written for and compared with (tests/sandbox/test_sandbox_motofast.py):
# they replace moto internals by name, so any other release must be checked again before they are trusted on it.
WRITTEN_FOR = "5.2.5"


class MotoVersionError(RuntimeError):
    """moto is not the release motofast was written for."""


def check_moto_version(version: str | None = None) -> None:
    """Refuse, loudly, a moto release other than `WRITTEN_FOR`."""
    if version is None:
        import moto

        version = str(moto.__version__)
    if version != WRITTEN_FOR:
        raise MotoVersionError(
            f"sandbox/motofast.py was written for moto {WRITTEN_FOR} and moto {version} is installed: compare its"
            " replacements with the new moto (tests/sandbox/test_sandbox_motofast.py), then update WRITTEN_FOR"
        )


class _NoTableCopy:
    """Stands in for the `copy` module inside moto's DynamoDB backend: tables are not copied, nor the item an
    update starts from when its table has no stream (moto keeps that copy only to write the stream record)."""

    def __init__(self, table_type: type, item_type: type) -> None:
        self._table_type = table_type
        self._item_type = item_type
        self.updating = threading.local()  # `unstreamed`: an update of a table without a stream is under way

    def deepcopy(self, value: Any, memo: Any = None) -> Any:
        if isinstance(value, self._table_type):
            return value
        if isinstance(value, self._item_type) and getattr(self.updating, "unstreamed", False):
            return value
        return copy.deepcopy(value, memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _install_expression_costs() -> None:
    from moto.dynamodb.parsing import validators
    from moto.dynamodb.parsing.ast_nodes import Node  # type: ignore[attr-defined]
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser  # type: ignore[attr-defined]

    parse = functools.lru_cache(maxsize=1024)(UpdateExpressionParser.make)  # a classmethod, bound
    frozen: dict[int, tuple[Any, bytes]] = {}  # id of a parsed tree the cache hands out -> (it, its pickle)

    def make(text: str) -> Any:
        tree = parse(text)
        if id(tree) not in frozen:
            if len(frozen) >= 2048:
                frozen.clear()
            frozen[id(tree)] = (tree, pickle.dumps(tree, pickle.HIGHEST_PROTOCOL))
        return tree

    UpdateExpressionParser.make = staticmethod(make)
    make.cache_info = parse.cache_info  # type: ignore[attr-defined]

    def tree_copy(value: Any, memo: Any = None) -> Any:
        if isinstance(value, Node) and memo is None:
            entry = frozen.get(id(value))
            data = entry[1] if entry is not None and entry[0] is value else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            return pickle.loads(data)
        return copy.deepcopy(value, memo)

    validators.deepcopy = tree_copy  # type: ignore[assignment]


def _install_condition_tokens() -> None:
    from moto.dynamodb.comparisons import ConditionExpressionParser

    lex = ConditionExpressionParser._lex_condition_expression
    tokens: dict[str, tuple[Any, ...]] = {}

    def cached_lex(self: Any) -> deque[Any]:
        text = self.condition_expression
        found = tokens.get(text)
        if found is None:
            found = tuple(lex(self))  # a malformed text raises here, every time
            if len(tokens) < 4096:
                tokens[text] = found
        return deque(found)  # the parser consumes its deque

    ConditionExpressionParser._lex_condition_expression = cached_lex  # type: ignore[method-assign]

    parse = ConditionExpressionParser.parse
    parsed: OrderedDict[str, tuple[Any, list[str], list[str]]] = OrderedDict()
    lookup = ConditionExpressionParser._lookup_expression_attribute_value
    # (text, names) -> the values its parse looked up: the placeholders of the text, whatever their values
    values_read: dict[tuple[str, str], tuple[str, ...]] = {}

    def recorded_lookup(self: Any, name: str) -> Any:
        read = self.__dict__.get("_sandbox_values_read")
        if read is not None:
            read.append(name)
        return lookup(self, name)

    def cached_parse(self: Any) -> Any:
        text, values = self.condition_expression, self.expression_attribute_values
        try:
            names = json.dumps(self.expression_attribute_names, sort_keys=True)
            read = values_read.get((text, names))
            if read is not None and isinstance(values, dict) and all(name in values for name in read):
                values = {name: values[name] for name in read}  # the key holds what the parse reads, no more
            key = json.dumps([text, names, values], sort_keys=True)
        except TypeError:  # bytes among the values: not worth a key
            return parse(self)
        found = parsed.get(key)
        if found is None:
            self._sandbox_values_read = []
            op = parse(self)
            if len(values_read) >= 4096:
                values_read.clear()
            values_read[text, names] = tuple(dict.fromkeys(self._sandbox_values_read))
            found = (op, list(self.expr_attr_names_found), list(self.expr_attr_values_found))
            parsed[key] = found
            if len(parsed) > 256:
                parsed.popitem(last=False)
        else:
            parsed.move_to_end(key)
            self.expr_attr_names_found.extend(found[1])
            self.expr_attr_values_found.extend(found[2])
        return found[0]

    ConditionExpressionParser.parse = cached_parse  # type: ignore[method-assign]
    ConditionExpressionParser._lookup_expression_attribute_value = recorded_lookup  # type: ignore[method-assign]


def _install_action_names() -> None:
    from moto.core import responses

    names = functools.lru_cache(maxsize=None)(responses.method_names_from_class)
    responses.method_names_from_class = names


def _install_module_list() -> None:
    from moto import backends

    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules


def _install_tree_walks() -> None:
    from moto.dynamodb.parsing import ast_nodes as untyped

    ast_nodes: Any = untyped  # moto's parser module carries no type hints
    node_type, expression, function = ast_nodes.Node, ast_nodes.Expression, ast_nodes.UpdateExpressionFunction
    handler: dict[tuple[type, type], Any] = {}  # (pass, node type) -> its processing map's key, or None
    descends: dict[type, bool] = {}  # node type -> find_clauses looks inside it
    nodes: dict[type, bool] = {}  # type -> it is a Node

    no_hook = ast_nodes.DepthFirstTraverser.pre_processing_of_child  # the base's: does nothing
    hooked: dict[type, bool] = {}  # pass -> it overrides pre_processing_of_child

    def handled_by(walker: Any, kind: type) -> Any:
        pair = (type(walker), kind)
        try:
            return handler[pair]
        except KeyError:
            found = next((key for key in walker._processing_map() if issubclass(kind, key)), None)
            handler[pair] = found
            return found

    def walk(self: Any, node: Any, child_id: int = -1) -> Any:
        kind = type(node)
        is_node = nodes.get(kind)
        if is_node is None:
            is_node = nodes[kind] = issubclass(kind, node_type)
        if not is_node:
            return node
        parent_node = node.parent
        children = node.children
        if children is not None:
            hook = hooked.get(type(self))
            if hook is None:
                hook = hooked[type(self)] = type(self).pre_processing_of_child is not no_hook
            for i, child_node in enumerate(children):
                if hook:
                    self.pre_processing_of_child(node, i)
                walk(self, child_node, i)
        key = handled_by(self, kind)
        if key is not None:
            node = self._processing_map()[key](node)
            node.parent = parent_node
            if parent_node:
                parent_node.children[child_id] = node
        return node

    def find_clauses(self: Any, clause_types: Any) -> list[Any]:
        clauses = []
        for child in self.children or []:
            kind = type(child)
            if kind in clause_types:
                clauses.append(child)
            else:
                inside = descends.get(kind)
                if inside is None:
                    inside = descends[kind] = issubclass(kind, (expression, function))
                if inside:
                    clauses.extend(child.find_clauses(clause_types))
        return clauses

    ast_nodes.DepthFirstTraverser.traverse_node_recursively = walk  # no pass overrides it
    node_type.find_clauses = find_clauses


def _install_static_checks() -> None:
    from moto.dynamodb.parsing import validators as untyped

    validators: Any = untyped  # moto's parser module carries no type hints
    # passes that only read the parsed tree, the attribute names and the table's key names, and never change
    # the tree (each returns the node it was given); the passes after them read the item and the values
    static = (
        validators.ActionCountValidator,
        validators.OverlappingPathsValidator,
        validators.UpdateHashRangeKeyValidator,
    )
    cls = validators.UpdateExpressionValidator
    init = cls.__init__
    passed: dict[tuple[int, str, tuple[str, ...]], Any] = {}  # -> the parsed tree (kept, so its id stays its own)

    def remember(self: Any, expression: Any, *args: Any, **kwargs: Any) -> None:
        init(self, expression, *args, **kwargs)
        self.source_tree = expression

    def validate(self: Any) -> Any:
        processors = self.processors
        first = 0
        while first < len(processors) and type(processors[first]) in static:
            first += 1
        tree = self.source_tree
        try:
            names = json.dumps(self.expression_attribute_names, sort_keys=True)
        except TypeError:
            names = None
        key = None if names is None else (id(tree), names, tuple(self.table.table_key_attrs))
        node = self.node_to_validate
        if key is None or passed.get(key) is not tree:
            for processor in processors[:first]:
                node = processor.traverse(node)
            if key is not None:
                if len(passed) >= 4096:
                    passed.clear()
                passed[key] = tree
        for processor in processors[first:]:
            node = processor.traverse(node)
        return node

    cls.__init__ = remember
    cls.validate = validate


def _install_sizes() -> None:
    from moto.dynamodb.models import dynamo_type

    attribute: Any = dynamo_type.DynamoType
    sets = ("BS", "NS", "SS")

    def sized(kind: str, value: Any) -> int:
        """`DynamoType({kind: value}).size()`, without building the DynamoType (and, for a map, a new one for
        every nested value at every level, as moto's does)."""
        if kind == "N":
            return len(str(value))
        if kind in sets:
            return sum(sized(kind[0], v) for v in value)
        if kind == "L":
            return sum(normal(v) for v in value)
        if kind == "M":
            return sum(len(k if isinstance(k, bytes) else k.encode("utf-8")) + normal(v) for k, v in value.items())
        if isinstance(value, bool):
            return 1
        return len(value if isinstance(value, bytes) else value.encode("utf-8"))

    def normal(value: Any) -> int:
        """`DynamoType(value).size()` for a DynamoType or its dict form."""
        if type(value) is attribute:
            return sized(value.type, value.value)
        pairs = list(value.items())
        return sized(*pairs[0])  # an empty one raises IndexError, as moto's `list(value)[0]` does

    def size(self: Any) -> int:
        kind, value = self.type, self.value
        if kind == "L":  # moto asks the list's own elements, not copies of them
            return sum(size(v) if type(v) is attribute else v.size() for v in value)
        return sized(kind, value)

    attribute.size = size

    limited = dynamo_type.LimitedSizeDict
    too_large = dynamo_type.ItemSizeTooLarge
    bytesize = dynamo_type.bytesize
    store = dict.__setitem__

    def measured(value: Any) -> int:
        return value.size() if type(value) is attribute else bytesize(str(value))

    def held(attrs: dict[str, Any]) -> int:
        """What moto's LimitedSizeDict counts as its size: every key and every value."""
        return sum(len(k.encode("utf-8")) if type(k) is str else bytesize(str(k)) for k in attrs) + sum(
            measured(v) for v in attrs.values()
        )

    def set_limited(self: Any, key: str, value: Any) -> None:
        """moto's check (the stored keys and values, then the new pair, against 405,000 bytes; a key already
        there is counted twice, as moto counts it), without building two lists of them first."""
        if held(self) + bytesize(key) + measured(value) > 405000:
            raise too_large
        store(self, key, value)

    def item_init(self: Any, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
        """moto's Item: each attribute set in turn, refused at the first that takes the item past the limit;
        the running size is kept, where moto sums every attribute again at each one."""
        self.hash_key = hash_key
        self.range_key = range_key
        self.attrs = limited()
        total = 0
        for key, value in attrs.items():
            typed = attribute(value)
            added = measured(typed)
            if total + bytesize(key) + added > 405000:
                raise too_large
            store(self.attrs, key, typed)
            total += (len(key.encode("utf-8")) if type(key) is str else bytesize(str(key))) + added

    limited.__setitem__ = set_limited  # type: ignore[method-assign]
    dynamo_type.Item.__init__ = item_init  # type: ignore[method-assign]


def _install_json_paths() -> None:
    import jsonpath_ng.ext  # moto's EventBridge imports `parse` from here at each delivery

    parse = jsonpath_ng.ext.parse

    @functools.lru_cache(maxsize=256)
    def cached_parse(path: str, debug: bool | None = None) -> Any:
        return parse(path, debug)

    jsonpath_ng.ext.parse = cached_parse


class _Unplanned(Exception):
    """A shape the request plans below do not cover: moto's parser reads it."""


def _install_json_requests() -> None:
    """moto reads a JSON request's body by walking the operation's input shape over every value, asking each
    structure for every one of its members (an AttributeValue has ten, for a value that holds one). The same
    walk is compiled once per shape into a plan that looks up only the keys a value holds and writes the
    members in the shape's order, with the same conversions (blobs, timestamps, numbers), the same values
    left out (unknown keys, nulls) and the same answer; on any error, moto's parser reads the body again and
    reports it as it always does."""
    from operator import itemgetter

    from moto.core import parse as parsing

    parser_type = parsing.JSONParser
    read = parser_type._parse_json_body
    plans: dict[tuple[int, ...], tuple[Any, Callable[[Any], Any] | None]] = {}
    first = itemgetter(0)
    numbers: dict[str, Callable[[Any], Any]] = {"float": float, "double": float, "integer": int, "byte": int,
                                                "short": int, "long": int}  # fmt: skip
    generic = {"_parse_structure", "_parse_list", "_parse_map", "_parse_blob", "_parse_timestamp",
               "_parse_float", "_parse_integer"}  # fmt: skip

    def compile_shape(parser: Any, shape: Any, memo: dict[str, Callable[[Any], Any]]) -> Callable[[Any], Any]:
        """The plan for a shape of the operation's service; named shapes are planned once (an AttributeValue
        holds AttributeValues: botocore builds a new shape object each time one is reached)."""
        if shape.name in memo:
            return memo[shape.name]
        kind = shape.type_name
        handler = getattr(type(parser), f"_parse_{kind}", None)
        if handler is not None and handler.__name__ not in generic:  # aliases (_parse_long) keep their name
            raise _Unplanned(kind)
        map_type = parser.MAP_TYPE
        if kind == "structure":
            if shape.is_document_type:
                return _same
            members: dict[str, tuple[int, str, Callable[[Any], Any]]] = {}

            def structure(value: Any) -> Any:
                if value is None:
                    return None
                out = map_type()
                found = [(*m, raw) for name, raw in value.items() if (m := members.get(name)) and raw is not None]
                found.sort(key=first)  # in the shape's order, as moto writes them
                for _, member_name, plan, raw in found:
                    out[member_name] = plan(raw)
                return out

            memo[shape.name] = structure
            for index, (member_name, member) in enumerate(shape.members.items()):
                json_name = member.serialization.get("name", member_name)
                if json_name in members:  # two members read from one key: moto's parser
                    raise _Unplanned(json_name)
                members[json_name] = (index, member_name, compile_shape(parser, member, memo))
            return structure
        if kind == "list":
            element = compile_shape(parser, shape.member, memo)
            return lambda value: [element(item) for item in value]
        if kind == "map":
            key_plan, value_plan = compile_shape(parser, shape.key, memo), compile_shape(parser, shape.value, memo)

            def mapping(value: Any) -> Any:
                out = map_type()
                for key, val in value.items():
                    out[key_plan(key)] = value_plan(val)
                return out

            return mapping
        if kind == "blob":
            return parser._blob_parser
        if kind == "timestamp":
            return parser._timestamp_parser
        return numbers.get(kind, _same)

    def plan_for(parser: Any, shape: Any) -> Callable[[Any], Any] | None:
        key = (id(shape), id(parser.MAP_TYPE), id(parser._blob_parser), id(parser._timestamp_parser))
        found = plans.get(key)
        if found is None or found[0] is not shape:
            try:
                plan: Callable[[Any], Any] | None = compile_shape(parser, shape, {})
            except _Unplanned:
                plan = None
            found = plans[key] = (shape, plan)
        return found[1]

    def planned_read(self: Any, raw_body: Any, shape: Any) -> Any:
        plan = plan_for(self, shape) if type(self) is parser_type else None
        if plan is None:
            return read(self, raw_body, shape)
        try:
            return plan(self._parse_body_as_json(raw_body))
        except Exception:  # moto's parser reads it again and fails as it does
            return read(self, raw_body, shape)

    parser_type._parse_json_body = planned_read  # type: ignore[method-assign]


def _same(value: Any) -> Any:
    return value


def _plain(value: Any) -> bool:
    """JSON that moto's serializer would write unchanged (no bytes, floats, None or timestamps)."""
    if isinstance(value, str | bool | int) and not isinstance(value, float):
        return True
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return False


_SCALARS = frozenset({"S", "N", "BOOL", "NULL", "SS", "NS"})  # attribute types botocore reads back as they are


def plain_image(image: Any) -> bool:
    """Whether an item's attributes in DynamoDB JSON (a stream record's Keys, NewImage or OldImage, as moto
    writes them) come back unchanged from a client's parse: no binary value ("B", "BS"), which botocore reads
    back as bytes, and nothing but DynamoDB JSON's shapes (strings, and a map's or list's values)."""
    if not isinstance(image, dict):
        return False
    return all(isinstance(name, str) and _plain_value(value) for name, value in image.items())


def _plain_value(value: Any) -> bool:
    if not isinstance(value, dict) or len(value) != 1:
        return False
    ((kind, inner),) = value.items()
    if kind in _SCALARS:
        return _plain(inner)
    if kind == "M":
        return plain_image(inner)
    if kind == "L":
        return isinstance(inner, list) and all(_plain_value(v) for v in inner)
    return False


def _install_plain_answers() -> None:
    from moto.dynamodb.responses import DynamoHandler, DynamoResult

    serialized = DynamoHandler.serialized

    def plain_serialized(self: Any, action_result: Any) -> Any:
        if type(action_result) is DynamoResult and _plain(action_result.result):
            headers = {"Content-Type": "application/x-amz-json-1.0"}
            headers.update(self.response_headers)
            return 200, headers, json.dumps(action_result.result)
        return serialized(self, action_result)

    DynamoHandler.serialized = plain_serialized  # type: ignore[method-assign]


def _wire_record(record: Any) -> dict[str, Any] | None:
    """A stream record as GetRecords writes it (its creation time in epoch seconds, as moto's serializer
    writes a timestamp), or None when anything else in it is not plain JSON."""
    from moto.core.serialize import TimestampSerializer

    if not isinstance(record, dict) or not isinstance(record.get("dynamodb"), dict):
        return None
    images = dict(record["dynamodb"])
    created = images.pop("ApproximateCreationDateTime", None)
    if not _plain({**record, "dynamodb": images}):
        return None
    if isinstance(created, datetime):
        images["ApproximateCreationDateTime"] = TimestampSerializer._timestamp_unixtimestamp(created)
    elif created is not None:
        return None
    return {**record, "dynamodb": images}


def _install_stream_records() -> None:
    from moto.core.responses import ActionResult
    from moto.dynamodbstreams.responses import DynamoDBStreamsHandler

    serialized = DynamoDBStreamsHandler.serialized

    def plain_records(self: Any, action_result: Any) -> Any:
        result = action_result.result
        if type(action_result) is ActionResult and isinstance(result, dict) and self._get_action() == "GetRecords":
            records = [_wire_record(r) for r in result.get("Records", [])]
            rest = {k: v for k, v in result.items() if k != "Records"}
            if None not in records and _plain(rest):
                headers = {"Content-Type": "application/x-amz-json-1.0"}
                headers.update(self.response_headers)
                return 200, headers, json.dumps({**rest, "Records": records})
        return serialized(self, action_result)

    DynamoDBStreamsHandler.serialized = plain_records  # type: ignore[method-assign]


def _install_scan() -> None:
    from moto.dynamodb.models import table as tables

    scan = tables.Table.scan

    def cheap_scan(
        self: Any,
        filters: dict[str, Any],
        limit: int,
        exclusive_start_key: dict[str, Any],
        filter_expression: Any = None,
        index_name: str | None = None,
        consistent_read: bool = False,
        projection_expression: Any = None,
        segments: Any = (None, None),
    ) -> Any:
        """moto's scan of a table (no index, no legacy ScanFilter), in the same order, with the same pages,
        counts and answer; the items are sorted by their key values, and only those the filter keeps are
        copied, when a projection is to be cut from them (moto's only caller, the Scan handler, reads them
        under the server's lock to write the answer)."""
        if index_name or filters or not self.range_key_attr:
            return scan(
                self, filters, limit, exclusive_start_key, filter_expression, index_name, consistent_read,
                projection_expression, segments,
            )  # fmt: skip
        items = sorted(
            (item for partition in self.items.values() for item in partition.values()),
            key=lambda item: (item.hash_key.cast_value, item.range_key.cast_value),
        )
        keys = [self.hash_key_attr], [self.range_key_attr]
        kept: list[Any] = []
        scanned, size, last, last_evaluated_key = 0, 0, None, None
        skipping = exclusive_start_key is not None
        for item in items:
            if not item.is_within_segment(segments):
                continue
            if skipping:
                if self._item_comes_before_dct(item, exclusive_start_key, *keys, True):
                    continue
                skipping = False
            item_size = item.size()
            if scanned == limit or size + item_size > tables.RESULT_SIZE_LIMIT:
                last_evaluated_key = self._get_last_evaluated_key(last, None)
                break
            if filter_expression is None or filter_expression.expr(item):
                kept.append(copy.deepcopy(item) if projection_expression else item)  # only a projection changes it
            size += item_size
            scanned += 1
            last = item
        if projection_expression:
            kept = [item.project(projection_expression) for item in kept]
        return kept, scanned, last_evaluated_key

    tables.Table.scan = cheap_scan  # type: ignore[method-assign]


def _install_transactions() -> None:
    from moto.dynamodb import models
    from moto.dynamodb.models.dynamo_type import Item
    from moto.dynamodb.models.table import Table

    original = models.DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        saved: list[tuple[str, dict[str, Any], Any]] = []
        # a cancelled transaction writes no stream record: what moto appended meanwhile is taken back
        streams = {name: len(t.stream_shard.items) for name, t in self.tables.items() if t.stream_shard is not None}
        for entry in transact_items:
            _, op = next(iter(entry.items()))
            table_name = op.get("TableName")
            if table_name not in self.tables:
                continue
            table = self.tables[table_name]
            if "Item" in op:
                key = {table.hash_key_attr: op["Item"][table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = op["Item"][table.range_key_attr]
            else:
                key = op.get("Key")
            if not key:
                continue
            try:
                before = self.get_item(table_name, key)
            except Exception:  # a malformed key: moto's own code reports it
                continue
            saved.append((table_name, key, copy.deepcopy(before.to_json()["Attributes"]) if before else None))
        try:
            original(self, transact_items)
        except Exception:
            for table_name, key, attributes in reversed(saved):
                if attributes is None:
                    if self.get_item(table_name, key) is not None:
                        self.delete_item(table_name, key)
                else:
                    self.put_item(table_name, attributes)
            for table_name, length in streams.items():
                del self.tables[table_name].stream_shard.items[length:]
            raise

    copier = _NoTableCopy(Table, Item)
    models.copy = copier  # type: ignore[assignment]
    update_item = models.DynamoDBBackend.update_item

    def unstreamed_update_item(self: Any, table_name: str, *args: Any, **kwargs: Any) -> Any:
        table = self.tables.get(table_name)
        copier.updating.unstreamed = table is not None and getattr(table, "stream_shard", None) is None
        try:
            return update_item(self, table_name, *args, **kwargs)
        finally:
            copier.updating.unstreamed = False

    models.DynamoDBBackend.update_item = unstreamed_update_item  # type: ignore[method-assign]
    models.DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]


# Each part by name, in the order installed. `MOTOFAST_SKIP` (names, comma-separated) leaves parts out, so
# `python -m bench.motofast_parts` can measure what each one saves.
PARTS: dict[str, Callable[[], None]] = {
    "transactions": _install_transactions,
    "expression_costs": _install_expression_costs,
    "plain_answers": _install_plain_answers,
    "condition_tokens": _install_condition_tokens,
    "module_list": _install_module_list,
    "action_names": _install_action_names,
    "json_paths": _install_json_paths,
    "tree_walks": _install_tree_walks,
    "static_checks": _install_static_checks,
    "sizes": _install_sizes,
    "scan": _install_scan,
    "json_requests": _install_json_requests,
    "stream_records": _install_stream_records,
}


def install() -> None:
    global _installed
    check_moto_version()
    if _installed:
        return
    skip = {name for name in os.environ.get("MOTOFAST_SKIP", "").split(",") if name}
    if skip - set(PARTS):
        raise ValueError(f"MOTOFAST_SKIP names no part: {', '.join(sorted(skip - set(PARTS)))}")
    for name, part in PARTS.items():
        if name not in skip:
            part()
    _installed = True
