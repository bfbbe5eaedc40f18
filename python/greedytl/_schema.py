"""The members of greedytl's model files (and of a sources directory's
index) and the JSON kinds of their values, as greedytl's reader requires
them.

greedytl reads a model file into Go types (modelfile.Header, the methods'
file types) with internal/jsonfile, which refuses a null where the type
holds a value that has no nil ("h is null; want an object") and, in a
version 2 file, a member missing where encoding/json always writes it
("columns[0].weight is missing; want a number"); encoding/json itself
refuses a value of another kind (a string for a number, 4.0 for an int).
The specs below mirror those types, member for member and in their order,
so that :func:`check` refuses what that reader refuses on these grounds,
with its messages, and a member that the type has no field for ('unknown
field "foo"').  A member names its field as encoding/json matches them:
by the field's name exactly, or else ignoring case ("B" is "b"); check
returns the document with its members so named.  A slice, a map or a
pointer member may be null (a slice reads as empty, a pointer as
absent); a pointer, a map and a member tagged omitempty may be missing.
A member given twice is decoded as encoding/json decodes it: into the
value the earlier one left, so that a repeated object's (a struct's, a
map's, a non-null pointer's) members are merged, the later ones' fields
and keys overriding the earlier ones' (recursively), and a repeated
array's objects merged into the earlier array's, element by element.
What the types do not say (lengths, ranges, finiteness, consistency) is
the scorers' to check (greedytl._model), and the index's reader's
(greedytl._sources).
"""

import json
import math

__all__ = ["SchemaError", "UnknownFieldError", "check", "Members", "object_pairs", "HEADER", "HEAD", "LINEAR", "AUTO", "GREEDY", "GREEDY_V1", "DICTIONARY", "MULTI", "MULTI_FORMS", "INDEX"]


class SchemaError(ValueError):
    """A member null, missing or of the wrong kind."""


class UnknownFieldError(SchemaError):
    """A member the type has no field for ('unknown field
    "sources[0].margin"'; greedytl's jsonfile says 'json: unknown field
    "margin" of sources[0]'): ``member`` is its name and
    ``within`` where it is ("sources[0]", "" at the top level), for a reader
    that says more (SourcesDir: a directory a newer greedytl wrote)."""

    def __init__(self, member, within):
        super().__init__('unknown field "{}"'.format(_name((within and [within] or []) + [member])))
        self.member = member
        self.within = within


class _Spec:
    """A Go type: whether a null of it is nil (nullable; else refused as
    wanting ``what``), whether a member of it may be missing (optional; else
    refused as wanting ``missing``), and check, its test of a value."""

    nullable = False
    optional = False

    def check(self, v, path, complete, into=None):
        """Raise SchemaError when v (not None) is not of this type (complete:
        nor a struct of it missing a required member); else return v as
        encoding/json decodes it into into (the value an earlier member of
        the same field left, or None), with the members of its structs
        named by their fields (v itself when they are already and into is
        None)."""
        return v


class _Scalar(_Spec):
    """A number, string, bool or column kind: a value for which test is
    true, else refused as wanting want."""

    def __init__(self, what, want, test):
        self.what, self.missing, self.want, self.test = what, what, want, test

    def check(self, v, path, complete, into=None):
        if not self.test(v):
            _refuse(v, path, self.want)
        return v


class NegativeZero(float):
    """The JSON integer -0, as read_json reads it (parse_int): −0.0, where
    json.loads would read it as the integer 0 and lose its sign.  greedytl
    (encoding/json, which writes a float64 −0 so) reads it into a float64
    as −0 and into an int as 0, and refuses it into a uint64 (ParseUint
    takes no sign): NUMBER gives −0.0, the signed integer types 0, UINT64
    refuses it.  Messages print it "-0", as written."""

    __slots__ = ()

    def __repr__(self):
        return "-0"

    __str__ = __repr__


def parse_int(s):
    """json.loads' parse_int for greedytl's JSON files when the text may
    hold a -0 (_model.read_json): a NegativeZero for it, else the int."""
    return NegativeZero(-0.0) if s == "-0" else int(s)


def _is_number(v):
    return type(v) in (int, float, NegativeZero)


class _Number(_Scalar):
    """Go's float64: a JSON number (int or float, as json.loads gives it)
    within a float64's range.  A number beyond it (1e400, which json.loads
    reads as inf, or an integer of 400 digits, which it keeps whole) is
    refused as greedytl's reader refuses it ('cannot unmarshal number')."""

    def __init__(self):
        super().__init__("a number", "a number", _is_number)

    def check(self, v, path, complete, into=None):
        super().check(v, path, complete)
        if not _fits_float64(v):
            raise SchemaError("cannot unmarshal number {}into {} of type float64: beyond "
                              "±1.7976931348623157e308".format(_show(v) + " " if type(v) is int else "", _name(path)))
        return -0.0 if type(v) is NegativeZero else v


def _fits_float64(v):
    """Whether the number v (int or float) is a finite float64 once rounded
    (as Go's strconv.ParseFloat rounds its digits)."""
    try:
        return math.isfinite(v)  # an int is converted, rounded to nearest
    except OverflowError:
        return False


def _all_fit_float64(v):
    """Whether the numbers in the list v all fit a float64 (_fits_float64),
    at the cost of one sum: a sum from 0.0 raises OverflowError at an
    integer too large for a float64 and is inf or NaN when an element is;
    a sum of finite values that overflows is checked element by element."""
    try:
        if math.isfinite(sum(v, 0.0)):
            return True
    except OverflowError:
        return False
    return all(map(_fits_float64, v))


# The range of Go's int (64 bits), into which greedytl reads its files'
# integers.
_GO_INT_MIN, _GO_INT_MAX = -2 ** 63, 2 ** 63 - 1


def is_go_int(v):
    """Whether v, a value json.loads returned, is one greedytl's reader
    takes into a Go int (encoding/json): a JSON integer from -2**63 to
    2**63-1.  It refuses one beyond ("cannot unmarshal number"), a number
    written with a fraction or an exponent (4.0, 4e0: json.loads gives a
    float), a bool, a string and a null; it takes -0 (a NegativeZero),
    which it reads as 0.  The schema's INT's test, for model files
    (_model._int too) and a sources directory's index alike."""
    return INT.test(v)


class _Integer(_Scalar):
    """A Go integer type: a JSON integer from lo to hi (json.loads gives
    an int; not a bool), -0 (a NegativeZero: 0) too when it is signed."""

    def __init__(self, want, lo, hi):
        super().__init__("a number", want, lambda v: type(v) is int and lo <= v <= hi
                         or type(v) is NegativeZero and lo < 0)
        self.lo, self.hi = lo, hi

    def check(self, v, path, complete, into=None):
        super().check(v, path, complete)
        return 0 if type(v) is NegativeZero else v


# Go's float64, int (64 bits), uint64, string and bool, and a column's kind
# (greedytl.Kind, which decodes itself: jsonfile names it "a value").
NUMBER = _Number()
INT = _Integer("an integer (-2**63 to 2**63-1)", _GO_INT_MIN, _GO_INT_MAX)
UINT64 = _Integer("an integer (0 to 2**64-1)", 0, 2 ** 64 - 1)
STRING = _Scalar("a string", "a string", lambda v: type(v) is str)
BOOL = _Scalar("true or false", "true or false", lambda v: type(v) is bool)
KIND = _Scalar("a value", '"feature" or "source"', lambda v: v in ("feature", "source"))


class _Backed(list):
    """A slice that a shorter array of a repeated member left: its
    elements, and in backing the elements of its backing array beyond
    them, which encoding/json decodes a later array's into again (it
    truncates a slice but keeps its array)."""

    __slots__ = ("backing",)


class Slice(_Spec):
    """A Go slice: an array whose elements are of elem, or null."""

    nullable = True
    missing = "an array"

    def __init__(self, elem):
        self.elem = elem

    def check(self, v, path, complete, into=None):
        _expect(v, list, path, "an array")
        if into and v and not isinstance(self.elem, _Scalar):
            return self._into(v, path, complete, into)
        # An array of numbers (the bulk of a file) is checked at once, and
        # so is one of integers (a nearest-neighbour file's row_classes, a
        # row a training row); one holding a number beyond its type's range
        # or a value of another kind, element by element below to name it.
        if self.elem is NUMBER and set(map(type, v)) <= {int, float} and _all_fit_float64(v):
            return v
        if (isinstance(self.elem, _Integer) and set(map(type, v)) <= {int}
                and (not v or self.elem.lo <= min(v) and max(v) <= self.elem.hi)):
            return v
        out = [_value(self.elem, x, path + (i,), complete) for i, x in enumerate(v)]
        return v if all(a is b for a, b in zip(out, v)) else out

    def _into(self, v, path, complete, into):
        """The array v (not empty) as encoding/json decodes it into the
        slice into that an earlier member left: each element into the
        element of into's backing array at its index, while there is one
        (structs merged), and the slice cut to v's length, its array kept.
        (An empty array makes a new slice, and null a nil one.)"""
        backing = list(getattr(into, "backing", into))
        for i, x in enumerate(v):
            prev = backing[i] if i < len(backing) else None
            x = _value(self.elem, x, path + (i,), complete, prev)
            if i < len(backing):
                backing[i] = x
            else:
                backing.append(x)
        if len(backing) == len(v):
            return backing
        out = _Backed(backing[:len(v)])
        out.backing = backing
        return out


class Members(dict):
    """A JSON object that gives a member more than once, as object_pairs
    decodes it: a dict of each member's last value, whose pairs are all
    its (member, value) pairs in document order, for check, which decodes
    each value as greedytl's reader decodes it, into what the earlier ones
    left (merging objects)."""

    __slots__ = ("pairs",)


def object_pairs(pairs):
    """json.loads' object_pairs_hook for greedytl's JSON files (a model
    file, a sources index; _model.read_json): the object's members
    as a dict, or a Members when it gives a member more than once (check
    then checks the earlier values too)."""
    d = dict(pairs)
    if len(d) < len(pairs):
        d = Members(d)
        d.pairs = pairs
    return d


def _members(v):
    """The (member, value) pairs of the object v in document order,
    repeated members' earlier values included (Members)."""
    return v.pairs if isinstance(v, Members) else v.items()


class Map(_Spec):
    """A Go map from strings to elem: an object, null or missing."""

    nullable = optional = True
    missing = "an object"

    def __init__(self, elem):
        self.elem = elem

    def check(self, v, path, complete, into=None):
        _expect_object(v, path)
        # Decoded into the map an earlier member left (its keys kept); a
        # key's value replaces the earlier one's (encoding/json decodes
        # each into a new element).
        out = dict(into or {})
        same = into is None and not isinstance(v, Members)
        for k, x in _members(v):  # a map's keys are matched exactly
            out[k] = _value(self.elem, x, path + (k,), complete)
            same = same and out[k] is x
        return v if same else out


# What the case folding of encoding/json's match of a member to a field
# (Unicode simple folding, bytes.EqualFold) adds to ASCII's for the field
# names here, all ASCII: the Kelvin sign is k, the long s is s.
_FOLD = {"\u212a": "k", "\u017f": "s"}


def _fold(name):
    """name case-folded, to be compared with a folded ASCII field name:
    ASCII letters in lower case, the Kelvin sign and the long s as k and
    s (any other character can equal no ASCII one)."""
    return "".join(c.lower() if c.isascii() else _FOLD.get(c, c) for c in name)


class Object(_Spec):
    """A Go struct: an object (not null) holding its required members and
    no member it has no field for (encoding/json's DisallowUnknownFields:
    'unknown field "foo"').  A member is a field's when it is the field's
    name, or else is it ignoring case (field); several members of one field
    are read in order, each checked and decoded into the value the earlier
    ones left (a struct, map or non-null pointer's object merged, a number
    or string replaced), as encoding/json decodes them.  A required member
    must be in each object (complete), as jsonfile checks each."""

    what = missing = "an object"

    def __init__(self, *parts, **fields):
        self.fields = {}
        for p in parts:
            self.fields.update(p.fields)
        self.fields.update(fields)
        self._folded = {_fold(k): k for k in self.fields}

    def field(self, key):
        """The name of the field the member key is read into, or None."""
        return key if key in self.fields else self._folded.get(_fold(key))

    def members(self, v):
        """The members of the object v that are fields' (the last of each
        field: what encoding/json reads of a repeated number, string or
        raw value, not of a repeated object, which check merges), by field
        name, the others left out; their values are not checked."""
        out = {}
        for k, x in _members(v):
            name = self.field(k)
            if name is not None:
                out[name] = x
        return out

    def only(self, v):
        """The object v without its members that are not this type's
        fields' (a Members, its repeated members kept, when v repeats
        one), to be checked as this type (check)."""
        return object_pairs([(k, x) for k, x in _members(v) if self.field(k) is not None])

    def check(self, v, path, complete, into=None):
        _expect_object(v, path)
        # Decoded into the struct an earlier member left: its fields kept
        # where this object gives none.
        out = dict(into or {})
        same = into is None and not isinstance(v, Members)
        present = set()
        for k, x in _members(v):
            name = self.field(k)
            if name is None:
                raise UnknownFieldError(k, _name(path) if path else "")
            out[name] = _value(self.fields[name], x, path + (k,), complete, out.get(name))
            present.add(name)
            same = same and name == k and out[name] is x
        if complete:
            for k, spec in self.fields.items():
                if k not in present and not spec.optional:
                    raise SchemaError("{} is missing; want {}".format(_name(path + (k,)), spec.missing))
        return v if same else out


class Optional(_Spec):
    """A member that may be missing: a pointer (nullable) or a field tagged
    omitempty (nullable as its type is)."""

    optional = True

    def __init__(self, spec, pointer):
        self.spec = spec
        self.nullable = pointer or spec.nullable
        self.what, self.missing = getattr(spec, "what", None), spec.missing

    def check(self, v, path, complete, into=None):
        return self.spec.check(v, path, complete, into)


def Pointer(spec):
    """A Go pointer member: null or missing reads as nil."""
    return Optional(spec, True)


def OmitEmpty(spec):
    """A field tagged omitempty: it may be missing."""
    return Optional(spec, False)


class Raw(_Spec):
    """A json.RawMessage (a nested model file, decoded on its own)."""

    nullable = True
    missing = "a value"


def _expect(v, kind, path, want):
    """Refuse v unless it is of the Python type kind (list, dict)."""
    if type(v) is not kind:
        _refuse(v, path, want)


def _expect_object(v, path):
    """Refuse v unless it is a JSON object (a dict, or a Members)."""
    if not isinstance(v, dict):
        _refuse(v, path, "an object")


def _refuse(v, path, want):
    raise SchemaError("{} is {}; want {}".format(_name(path), _show(v), want))


def _value(spec, v, path, complete, into=None):
    """v checked and decoded as spec's type into into (check); null is
    nil (None), where the type has one."""
    if v is None:
        if not spec.nullable:
            raise SchemaError("{} is null; want {}".format(_name(path), spec.what))
        return None
    return spec.check(v, path, complete, into)


def _name(path):
    """A member's path as jsonfile names it: "columns[0].weight"."""
    out = ""
    for k in path:
        out += "[{}]".format(k) if isinstance(k, int) else ("." + k if out else k)
    return out or "the document"


def _show(v):
    s = repr(v) if type(v) is NegativeZero else json.dumps(v)
    return s if len(s) <= 40 else s[:37] + "..."


def check(spec, doc, complete=True):
    """Raise SchemaError when the decoded model file doc (a dict) is not one
    greedytl's reader takes into spec's type: a member null where it may
    not be, of the wrong kind, or (complete: a version 2 file) missing.
    Return the document as that reader reads it: each object's members
    named by their fields, a repeated one decoded into what the earlier
    ones left (Object; doc itself when they are already so named and none
    is repeated)."""
    return spec.check(doc, (), complete)


# source.Index (a sources directory's sources.json, which greedytl reads
# with jsonfile.Decode: a missing member is its zero value), its
# source.Negatives and its entries (source.Entry, with source.Info's
# members; "scores", source.ScoreStats, is written by train-sources since
# the seventh round of greedytl-nway and absent before).
NEGATIVES = Object(classes=Slice(INT), named=BOOL, fraction=OmitEmpty(NUMBER), seed=UINT64, source=Slice(INT),
                   target=Slice(INT))
ENTRY = Object(**{"class": INT}, name=STRING, c=NUMBER, cv_score=NUMBER, cv_scores=Slice(NUMBER), positives=INT,
               negatives=INT, converged=BOOL, stuck=OmitEmpty(BOOL), file=STRING, sha256=STRING,
               scores=Pointer(Object(mean=NUMBER, std=NUMBER)))
INDEX = Object(version=INT, dataset=STRING, data_sha256=STRING, num_features=INT, classes=Slice(STRING),
               negatives=Pointer(NEGATIVES), solver=STRING, bias=NUMBER, eps=NUMBER, c_grid=Slice(NUMBER), folds=INT,
               seed=UINT64, l1_ratio=OmitEmpty(NUMBER), sources=Slice(ENTRY), missing=OmitEmpty(Slice(STRING)))

# modelfile.Header and what it points to (buildinfo.Info, source.ID,
# modelfile.LabelNames).
BUILD = Object(module=STRING, revision=OmitEmpty(STRING), modified=OmitEmpty(BOOL), go=STRING,
               executable_sha256=OmitEmpty(STRING))
SOURCES = Object(dir=STRING, sha256=STRING, count=INT, data_sha256=STRING, seed=UINT64)
LABELS = Object(positive=STRING, negative=Slice(STRING))
HEADER = Object(format=STRING, version=INT, method=STRING, hyperparameters=Map(NUMBER), build=Pointer(BUILD),
                sources=Pointer(SOURCES), labels=Pointer(LABELS), feature_names=OmitEmpty(Slice(STRING)),
                source_names=OmitEmpty(Slice(STRING)))
# What modelfile.Parse reads of every file, whatever its type, before the
# type is known: the header and "classes" (whose presence makes the file
# a multi-class one).
HEAD = Object(HEADER, classes=Raw())

# standardize.Scaler.
SCALER = Object(mean=Slice(NUMBER), scale=Slice(NUMBER))

# greedytl.Column and greedytl.Step; method.AutoCommittee (greedytl-auto's
# optional "committee").
COLUMN = Object(kind=KIND, index=INT)
STEP = Object(column=COLUMN, score=NUMBER, reg_error=NUMBER, loo_error=NUMBER)
COMMITTEE = Object(
    greedy=Slice(Object(gamma=NUMBER, path=Slice(Object(STEP, weight=NUMBER)))),
    source=Pointer(Object(index=INT, auc=NUMBER, slope=NUMBER, intercept=NUMBER)),
    ridge=Object(**{"lambda": NUMBER, "shared": OmitEmpty(BOOL), "lambda_rows": OmitEmpty(INT)}),
    tally=Slice(Object(COLUMN, greedy=Slice(INT), source=INT)),
    subsamples=OmitEmpty(INT),
    left_out=OmitEmpty(Slice(Object(subsample=INT, columns=Slice(Object(COLUMN, ratio=NUMBER))))))

# method.linearFile, and greedytl-auto's autoFile.
LINEAR = Object(HEADER, x=SCALER, h=SCALER, wx=Slice(NUMBER), wh=Slice(NUMBER), b=NUMBER)
AUTO = Object(LINEAR, committee=Pointer(COMMITTEE))

# The root package's modelFile; version 1's (read without the missing
# members' check) also has options.feature_factor.
_OPTIONS = dict([("lambda", NUMBER), ("auto_lambda", BOOL), ("delta", NUMBER), ("max_k", INT), ("sample", INT),
                 ("seed", UINT64), ("gamma", NUMBER), ("stop_at_min_loo", BOOL)])
_FILE_COLUMN = Object(kind=KIND, index=INT, weight=NUMBER, mean=NUMBER, scale=NUMBER, score=NUMBER,
                      reg_error=NUMBER, loo_error=NUMBER)
GREEDY = Object(HEADER, num_features=INT, num_sources=INT, options=Object(**_OPTIONS), columns=Slice(_FILE_COLUMN))
GREEDY_V1 = Object(GREEDY, options=Object(feature_factor=NUMBER, **_OPTIONS))

# method.dictionaryFile.
DICTIONARY = Object(HEADER, x=SCALER, h=SCALER, sparsity=INT, dictionaries=Slice(Slice(Slice(NUMBER))),
                    codes=SCALER, w=Slice(NUMBER), b=NUMBER)

# method.multiHeader (MULTI), the scaled forms' blockScaler, and each form's
# file.
MULTI = Object(HEADER, classes=Slice(STRING), num_features=INT, num_sources=INT, form=STRING)
_SCALED = Object(MULTI, x=SCALER, h=SCALER)
MULTI_FORMS = {
    "linear": Object(_SCALED, wx=Slice(Slice(NUMBER)), wh=Slice(Slice(NUMBER)), b=Slice(NUMBER),
                     normalise=OmitEmpty(STRING)),
    "nearest-neighbour": Object(_SCALED, rows=Slice(Slice(NUMBER)), row_classes=Slice(INT)),
    "centroid-cosine": Object(_SCALED, centroids=Slice(Slice(NUMBER))),
    "one-vs-rest": Object(MULTI, models=Slice(Raw()), score_scale=Slice(NUMBER)),
    "ensemble": Object(MULTI, members=Slice(Raw()), weights=Slice(NUMBER)),
}
