"""Reading greedytl model files and computing their scores in NumPy.

Every model file ``greedytl fit`` writes is a JSON document with the
envelope ``{"format": "greedytl-model", "version": 2, "method": …,
"hyperparameters": …}`` and a method's own members.  :func:`read_model`
decodes one into a scorer whose ``scores(X, H)`` mirrors the Go decoder
that ``greedytl predict`` uses, operation by operation, so that the two
agree to rounding: bit for bit, but for the matrix products (whose NumPy
order is BLAS's), where greedytl was built for amd64 at the default
GOAMD64=v1 (the tests check the sums against the Go loops' definition bit
for bit, and the scores against greedytl predict's to 1e-12).  Go fuses a
multiply and an add (acc += w·z) into one rounding on arm64, ppc64le,
s390x and riscv64, and on amd64 from GOAMD64=v3 on, where the sums can
differ in their last bits:

* a **linear** file (``"x"``, ``"h"``, ``"wx"``, ``"wh"``, ``"b"``;
  method/linearmodel.go): most baselines and greedytl-auto;
* a **GreedyTL** file (``"columns"``; the root package's json.go):
  greedytl, greedytl-59, greedytl-sp (and their specs) and forward-reg;
* a **dictionary** file (``"dictionaries"``; method/dictionary.go), whose
  scores need orthogonal matching pursuit (sparsecode/sparsecode.go);
* a **multi-class** file (``"classes"``; docs/design.md, "Multi-class
  model files"): the forms ``linear``, ``nearest-neighbour``,
  ``centroid-cosine``, ``one-vs-rest`` and ``ensemble``.

A file's type is its method's, as greedytl decides it (a multi-class
file has a "classes" member): a file whose members are another type's is
refused, as greedytl refuses it.

Binary scorers return one score a row (positive: the positive class),
multi-class ones a (rows × K) matrix whose column k is ``classes[k]``.
A scorer's ``inspection()`` is what ``greedytl inspect --json`` prints of
its file, from the Go models' selections mirrored as their scores are.

A file is refused (:class:`ModelFileError`) where greedytl's reader refuses
a member null, missing or of the wrong kind (greedytl._schema, with its
messages: ``h is null; want an object``), and where the scorers find it
inconsistent, and its method spec where greedytl's lookup refuses it (its
syntax, and settings its method does not take: _check_settings mirrors
the methods' Configure), and a GreedyTL file's method spec where it is
not the spec its options make (GreedyScorer._check_spec), and a GreedyTL
file's options, columns and their errors where greedytl.Model's validate
refuses them (GreedyScorer._check_model) and its hyperparameters where
they are not its options' (GreedyScorer._check_hyperparameters);
greedytl's check of greedytl-auto's committee against its model (members
that no score uses) is not repeated.  An error of a method's decoder
(past the header) carries the file's method in front, ``greedytl:lambda=2
model: …``, where greedytl writes ``reading greedytl:lambda=2 model: …``.
"""

import codecs
import copy
import decimal
import json
import math
import re

import numpy as np

from . import _schema
from ._schema import is_go_int

__all__ = ["ModelFileError", "read_model", "parse_model", "Scorer"]

FORMAT = "greedytl-model"
VERSIONS = (1, 2)

# The least positive normal float64 (method.normaliseRow's and
# method.distance's 0x1p-1022): a sum of squares below it is recomputed in
# units of the row's (or the difference's) largest value.
_MIN_NORMAL = 2.0 ** -1022
# The most floats the terms of a score's sums take at once (32 MiB), but
# for one column of terms: _add_columns asks for blocks of columns of at
# most that many terms, and _sq_dist, whose terms of one column are as many
# as the distances it returns (rows × training rows: far more than its
# inputs hold), takes blocks of rows whose distances fit in it.  (A column
# of a linear score's terms, or of a row's squares, is one column of the
# input, which the caller holds already: their rows are not blocked.)
_BLOCK = 2 ** 22
# From how many running sums on _add_columns adds column by column rather
# than with np.add.accumulate (measured there).
_TALL = 2 ** 14
# sparsecode's ompTol and ompDependent.
_OMP_TOL = 1e-12
_OMP_DEPENDENT = 1e-12


class ModelFileError(ValueError):
    """A model file this package cannot read (malformed, another format or
    version, an unknown method or an inconsistent member)."""


def read_model(path):
    """Read the model file at ``path`` and return its scorer."""
    with open(path, "rb") as f:
        text = f.read()
    try:
        return parse_model(text)
    except ModelFileError as e:
        raise ModelFileError("{}: {}".format(path, e)) from None


def _reject_constant(name):
    raise ValueError("{} is not a JSON number".format(name))


def _go_replace(e):
    """The codecs error handler "greedytl-go": each byte of invalid UTF-8
    is one U+FFFD, as Go's encoding/json reads it in a string (where
    outside one it is a syntax error, as json.loads finds it)."""
    return "\ufffd", e.start + 1


codecs.register_error("greedytl-go", _go_replace)


# Where a text may escape a surrogate (\uD800 to \uDFFF, any case).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# A JSON string's escapes, each whole, from the left: a surrogate pair,
# a lone surrogate (group 1), any other escape (two characters; \uXXXX's
# tail is plain text to it).  Every backslash of valid JSON begins one.
_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                     r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})|\\.", re.DOTALL)


def _go_surrogates(text):
    """The JSON text with each escaped lone surrogate (a \\uDC00-\\uDFFF, or a
    \\uD800-\\uDBFF not followed by an escaped low one) escaping U+FFFD
    instead, as encoding/json reads it (its unquote: a high surrogate and
    the low one after it are one character, any other surrogate is
    U+FFFD), where json.loads would keep it (a str that cannot be encoded:
    a name of a file to open, a class name distinct from another's
    U+FFFD).  The same length, so that an error's position is kept."""
    if not _SURROGATE_ESCAPE.search(text):
        return text
    return _ESCAPE.sub(lambda m: "\\ufffd" if m.group(1) else m.group(0), text)


# UTF-16's byte order marks, little- and big-endian (internal/bom).
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


class _UTF16Error(ValueError):
    """read_json's error for a file in UTF-16, with greedytl's message
    (bom.ErrUTF16)."""

    def __init__(self):
        super().__init__("UTF-16 text (it starts with UTF-16's byte order mark, as Windows Notepad and Excel save "
                         "\"Unicode\" text): save it as UTF-8")


# Where a text may hold the JSON integer -0 (not -0.5, -0e1, -0.0, which
# json.loads reads as floats, their sign kept).
_MINUS_ZERO = re.compile(r"-0(?![0-9.eE])")


def go_text(data):
    """The text of one of greedytl's files (str, or bytes read as UTF-8,
    each byte of invalid UTF-8 one U+FFFD: "greedytl-go"), without the
    byte order mark before it that greedytl's readers skip (internal/bom):
    read_json's, for a JSON file, and _sources.read_liblinear's."""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "greedytl-go")
    return data[1:] if data.startswith("\ufeff") else data


def read_json(text):
    """Decode the text (str or bytes) of one of greedytl's JSON files (a
    model file, a sources index) as greedytl's reader does: a byte order
    mark before it is skipped, invalid UTF-8 in a string reads as U+FFFD
    (one a byte; go_text), so does an escaped lone surrogate ("\\ud800"; a pair is
    one character), NaN and Infinity are no numbers, the integer -0 is a
    _schema.NegativeZero (−0.0, which _schema.check decodes as greedytl
    does: −0 into a float64, 0 into an int), and an object that gives a
    member twice is a _schema.Members (each value checked, and decoded
    into what the earlier ones left, by _schema.check).  ValueError when
    it is not JSON, with greedytl's message when it is UTF-16 (its byte
    order mark first: internal/jsonfile refuses it so)."""
    if isinstance(text, bytes) and text.startswith(_UTF16_MARKS):
        raise _UTF16Error()
    text = go_text(text)
    # The integer -0 (parse_int: a NegativeZero) only where the text may
    # hold one: json.loads reads integers fastest by itself.
    parse_int = _schema.parse_int if _MINUS_ZERO.search(text) else None
    return json.loads(_go_surrogates(text), parse_constant=_reject_constant, parse_int=parse_int,
                      object_pairs_hook=_schema.object_pairs)


def parse_model(text):
    """Decode a model file's text (str or bytes) and return its scorer.

    As greedytl reads a file (read_json): a byte order mark before it is
    skipped, and invalid UTF-8 in a string reads as U+FFFD (one a byte).
    A member given twice in an object is decoded as encoding/json decodes
    it, into what the earlier one left (a number replaced, an object's
    members merged), and each of its values is checked as the member's
    type wants (_schema)."""
    try:
        doc = read_json(text)
    except _UTF16Error as e:
        raise ModelFileError(str(e)) from None  # what it is, as greedytl says, not JSON that fails
    except ValueError as e:
        raise ModelFileError("not a JSON model file: {}".format(e)) from None
    return decode(doc)


def decode(doc):
    """Return the scorer of a decoded model document (a dict)."""
    if not isinstance(doc, dict):
        raise ModelFileError("the model file is not a JSON object")
    # The header as greedytl reads it before the file's type is known (a
    # member names its field ignoring case too: "Method" is "method").
    head = _schema.HEAD.members(doc)
    if head.get("format") != FORMAT:
        got = head.get("format")
        # greedytl's message (modelfile's "format is %q, want %q"): a
        # missing format is the empty string there.
        got = "" if got is None else got
        raise ModelFileError("format is {}, want {}".format(
            _go_quote(got) if isinstance(got, str) else repr(got), _go_quote(FORMAT)))
    version = head.get("version")
    if is_go_int(version):
        version = int(version)  # -0 (a NegativeZero) is 0, as greedytl reads it into an int
    if type(version) is not int or version not in VERSIONS:  # 2.0 and true (1) too
        raise ModelFileError("unsupported version {!r}: this package reads model file versions {}".format(
            version, " and ".join(map(str, VERSIONS))))
    # What else modelfile.Parse refuses, before the method's decoder reads
    # the body: the header's members of the wrong kind, null or missing
    # (its objects checked each as written: a repeated one's members are
    # required in each, not in their merge), and their values.
    try:
        header = _schema.check(_schema.HEADER, _schema.HEADER.only(doc))
    except _schema.SchemaError as e:
        raise ModelFileError(str(e)) from None
    _check_parsed(header, "classes" in head)
    method = head.get("method")
    if not isinstance(method, str) or not method:
        raise ModelFileError("the file names no method")
    # The file's type is its method's, as greedytl's method.Read decides
    # it: a multi-class file (a "classes" member, not null) is of the form
    # of its native multi-class method, else one-vs-rest of a binary
    # method; a binary file is of the type its method's Decode reads.  The
    # method is a spec (_parse_spec): its name, and settings that only the
    # binary methods that take them accept (_check_settings).
    name, settings = _parse_spec(method)
    if head.get("classes") is not None:
        form = _MULTI_FORMS.get(name)
        if form is not None and settings is not None:
            raise ModelFileError("{} takes no settings (spec {})".format(name, _go_quote(method)))
        if form is None and name in _BINARY_SCORERS:
            form = "one-vs-rest"
            _check_settings(name, settings, method)
        if form is None:
            raise ModelFileError("unknown multi-class method {} (known: {})".format(
                _go_quote(name), ", ".join(list(_MULTI_FORMS) + list(_BINARY_SCORERS))))
        make = lambda: MultiScorer(doc, form)  # noqa: E731
    else:
        scorer = _BINARY_SCORERS.get(name)
        if scorer is None and name in _MULTI_FORMS:
            raise ModelFileError("{} is a multi-class method: it fits class labels, two classes or more, through NewMulti, "
                                 "not ±1 labels through New (binary methods: {})".format(
                name, ", ".join(_BINARY_SCORERS)))
        if scorer is None:
            raise ModelFileError("unknown method {} (known: {})".format(
                _go_quote(name), ", ".join(_BINARY_SCORERS)))
        _check_settings(name, settings, method)
        make = lambda: scorer(doc)  # noqa: E731
    try:
        scorer = make()
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, ModelFileError):
            raise
        raise ModelFileError("{} model: {}".format(method, _describe(e))) from None
    # The names of X's and H's columns, when the features (the source
    # scores given as a matrix) had names (a CSV header): one per feature
    # (source), as greedytl's method.Read checks.
    for key, of, count in (("feature_names", "features", scorer.num_features),
                           ("source_names", "sources", scorer.num_sources)):
        names = header.get(key)
        if names is not None and len(names) != count:
            raise ModelFileError('{}{} model: "{}" has {} names but the model has {} {}'.format(
                "multi-class " if head.get("classes") is not None else "", method, key, len(names), count, of))
    return scorer


def _check_parsed(header, classes):
    """Refuse what modelfile.Parse refuses of the checked header's values
    (classes: whether the file has a "classes" member; a multi-class file's
    "labels" are checked against its classes by MultiScorer)."""
    sources, labels = header.get("sources"), header.get("labels")
    if sources is not None and not sources["sha256"]:
        raise ModelFileError('"sources" has no sha256 digest')
    for key in ("feature_names", "source_names"):
        if header.get(key) == []:
            raise ModelFileError('"{}" names no column (a file without names has no "{}"; greedytl never writes an empty one)'.format(key, key))
    if labels is not None:
        _check_labels(labels["positive"], labels["negative"] or [])


# A spec's key=auto is the setting auto_key=1 (modelfile.AutoPrefix).
_AUTO_PREFIX = "auto_"


def _parse_spec(spec):
    """The method name and settings (key -> float; None without a colon)
    of a file's method spec, "name" or "name:key=value,...", as greedytl
    reads it (modelfile.ParseSpec): a value is a number
    (_parse_setting), true or false (1, 0), or auto (key=auto is
    auto_key=1).  A ModelFileError with greedytl's message for an empty
    name or key, a missing "=", a key holding a colon or a blank, a value
    not so read, a key set twice, a colon with no settings after it, and
    a whole number given to max_k or sample not written as one
    (_whole_text)."""
    q = _go_quote(spec)
    name, colon, rest = spec.partition(":")
    if name == "":
        raise ModelFileError("spec {}: empty method name".format(q))
    if "=" in name or "," in name:
        raise ModelFileError("spec {}: settings follow the method name after a colon, as in "
                             "greedytl-sp:gamma=0.25".format(q))
    if not colon:
        return name, None
    if rest == "":
        raise ModelFileError("spec {}: no settings after the colon".format(q))
    settings, unwhole = {}, []
    for kv in rest.split(","):
        k, eq, v = kv.partition("=")
        if not eq:
            raise ModelFileError("spec {}: setting {} is not key=value".format(q, _go_quote(kv)))
        if k == "":
            raise ModelFileError("spec {}: setting {} has no key".format(q, _go_quote(kv)))
        if any(c in k for c in ": \t"):
            raise ModelFileError("spec {}: key {} holds a colon or a blank".format(q, _go_quote(k)))
        if v.isascii() and v.lower() == "auto":  # modelfile.IsAuto
            if k.startswith(_AUTO_PREFIX):
                raise ModelFileError("spec {}: {}={}: write {}={} or {}=1".format(
                    q, k, v, k[len(_AUTO_PREFIX):], v, k))
            k, x = _AUTO_PREFIX + k, 1.0
        else:
            try:
                x = _parse_setting(v)
            except ValueError as e:
                raise ModelFileError("spec {}: {}: value {}".format(q, k, e)) from None
        if k in settings:
            raise ModelFileError("spec {}: {} is set twice".format(q, k))
        settings[k] = x
        # A whole number given to a setting of whole numbers is written as
        # greedytl's whole-number flags read one, or as its model files
        # write one (method.parseSpec, modelfile.WholeText): refused once
        # every setting has been read, the first key in sorted order.
        if k in _WHOLE_SETTINGS and x == math.trunc(x) and not _whole_text(v, x):
            unwhole.append((k, v))
    if unwhole:
        k, v = min(unwhole)
        raise ModelFileError("spec {}: {}={}: want a whole number in decimal digits (as --{} reads one)".format(
            q, k, v, k.replace("_", "-")))
    return name, settings


# The GreedyTL settings of whole numbers (greedytl.WholeSetting).
_WHOLE_SETTINGS = ("max_k", "sample")


def _whole_text(v, x):
    """Whether v, read as x, is written as a whole number (modelfile.WholeText):
    decimal digits with an optional sign (C's atoi), or as greedytl writes
    the number x in a spec (strconv.FormatFloat's shortest form: 1e+06)."""
    digits = v.lstrip("+-")
    if len(v) - len(digits) <= 1 and digits != "" and all(c in "0123456789" for c in digits):
        return True
    return _go_float(x) == v


def _parse_setting(v):
    """A spec's value v as greedytl reads it: true, false, or a number as
    number.ParseSetting reads one (strconv.ParseFloat's syntax without
    digit separators, finite, not a literal beyond float64's range nor one
    that is not zero but rounds to 0); else ValueError with its words."""
    if v in ("true", "false"):
        return 1.0 if v == "true" else 0.0
    q = _go_quote(v)
    parsed = _parse_go_float(v)
    if parsed is None:
        raise ValueError("{} is not a number".format(q))
    x, beyond = parsed
    if beyond:
        raise ValueError("{} is beyond the largest float64 (1.7976931348623157e+308)".format(q))
    if not math.isfinite(x):
        raise ValueError("{} is not finite".format(q))
    if x == 0 and not _zero_literal(v):
        raise ValueError("{} is not zero but rounds to 0 in float64 (the smallest is 5e-324)".format(q))
    return x


def _zero_literal(s):
    """Whether the number literal s writes zero: no digit of its mantissa
    is other than 0 (number.zeroLiteral)."""
    s = s.lstrip("+-")
    exp = "eE"
    if len(s) > 1 and s[0] == "0" and s[1] in "xX":
        s, exp = s[2:], "pP"
    cut = [i for i in (s.find(c) for c in exp) if i >= 0]
    if cut:
        s = s[:min(cut)]
    return s.strip("0.") == ""


# The settings of the GreedyTL methods' specs (greedytl.Options.Set's
# rules): key -> (its name in messages, what it must be, the test).
_GREEDY_SETTINGS = {
    "lambda": ("lambda", "positive", lambda v: v > 0),
    "delta": ("delta", "≥ 0", lambda v: v >= 0),
    "gamma": ("gamma (the feature factor)", "≥ 0", lambda v: v >= 0),
    "max_k": ("max_k", "a whole number ≥ 0", lambda v: v >= 0 and v == math.trunc(v)),
    "sample": ("sample", "a whole number ≥ 0", lambda v: v >= 0 and v == math.trunc(v)),
    "auto_lambda": ("auto_lambda", "true or false (1 or 0)", lambda v: v in (0, 1)),
    "stop_at_min_loo": ("stop_at_min_loo", "true or false (1 or 0)", lambda v: v in (0, 1)),
}
# The fields of greedytl.Options that the settings' keys name, as the
# messages of its check name them.
_GO_OPTION_FIELDS = {"lambda": "Lambda", "delta": "Delta", "gamma": "FeatureFactor", "max_k": "MaxK",
                     "sample": "Sample"}
# The GreedyTL methods' default settings (method/greedy.go's
# registrations), those not given 0.
_GREEDY_DEFAULTS = {
    "greedytl": {"lambda": 1, "delta": 1e-4, "gamma": 1},
    "greedytl-59": {"lambda": 1, "delta": 1e-4, "gamma": 1, "sample": 59},
    "greedytl-sp": {"lambda": 1, "delta": 1e-4, "gamma": 0.5},
}
# The greatest max_k and sample a spec may give (math.MaxInt32).
_MAX_INT32 = 2 ** 31 - 1
# The one flag of the binary methods that take a flag as their setting.
_FLAG_SETTINGS = {"greedytl-auto": "single_fit", "l1-logistic": "exact"}


def _check_settings(name, settings, spec):
    """Refuse the settings of a binary method's spec (name's, written
    spec) as greedytl's lookup refuses them (method.configure): settings
    of a method that takes none; for the GreedyTL methods an unknown key
    or a value out of its range, and lambda beside auto_lambda=1; for
    greedytl-auto and l1-logistic another key than their flag, or a value
    other than 0 or 1."""
    if not settings:
        return
    if name in ("greedytl", "greedytl-59", "greedytl-sp"):
        problem = _greedy_settings_problem(settings)
    elif name in _FLAG_SETTINGS:
        flag = _FLAG_SETTINGS[name]
        problem = None
        for k in sorted(settings):
            if k != flag:
                problem = "unknown key {}; {} takes {}=0 or {}=1".format(_key_as_typed(k), name, flag, flag)
            elif settings[k] not in (0, 1):
                problem = "{} = {}, want 0 or 1".format(flag, _go_float(settings[k]))
            if problem:
                break
    else:
        raise ModelFileError("{} takes no settings (spec {})".format(name, _go_quote(spec)))
    if problem:
        raise ModelFileError("spec {}: {}".format(_go_quote(spec), problem))


def _greedy_settings_problem(settings):
    """What greedytl.Options.Set, key by key in sorted order, and the
    GreedyTL methods' Configure refuse of settings, or None."""
    for k in sorted(settings):
        v = settings[k]
        rule = _GREEDY_SETTINGS.get(k)
        if rule is None and k.startswith(_AUTO_PREFIX) and k[len(_AUTO_PREFIX):] in _GREEDY_SETTINGS:
            return "{}: GreedyTL chooses only lambda itself (lambda=auto)".format(_key_as_typed(k))
        if rule is None:
            return "unknown key {}; GreedyTL takes {}".format(_key_as_typed(k), ", ".join(sorted(_GREEDY_SETTINGS)))
        what, must, ok = rule
        if not ok(v):
            return "{} must be {}, got {}".format(what, must, _go_float(v))
        if k in ("max_k", "sample") and v > _MAX_INT32:
            return "{} must be at most {}, got {}".format(k, _MAX_INT32, _go_float(v))
    if "lambda" in settings and settings.get("auto_lambda") == 1:
        return "lambda and auto_lambda=true exclude each other"
    return None


def _key_as_typed(key):
    """A setting's key as greedytl's messages name it (modelfile.KeyAsTyped):
    quoted, and an auto_ key that key=auto may stand for followed by that
    spelling ('"auto_lambda" (lambda=auto)')."""
    base = key[len(_AUTO_PREFIX):] if key.startswith(_AUTO_PREFIX) else ""
    if base and not base.startswith(_AUTO_PREFIX):
        return "{} ({}=auto)".format(_go_quote(key), base)
    return _go_quote(key)


def _go_float(x):
    """The float x as Go's %v writes it (strconv.FormatFloat(x, 'g', -1,
    64)): the shortest digits that read back as x, with an exponent of at
    least two digits when the first digit's is below -4 or 6 or more
    (1e+06, 1.5e-07), else plainly (123456, 0.0001)."""
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    sign, digits, exp = decimal.Decimal(repr(x)).normalize().as_tuple()
    ds = "".join(map(str, digits))
    e = len(ds) + exp - 1
    if e < -4 or e >= 6:
        out = ds[0] + ("." + ds[1:] if len(ds) > 1 else "") + "e{}{:02d}".format("-" if e < 0 else "+", abs(e))
    elif e >= len(ds) - 1:
        out = ds + "0" * (e - len(ds) + 1)
    elif e >= 0:
        out = ds[:e + 1] + "." + ds[e + 1:]
    else:
        out = "0." + "0" * (-e - 1) + ds
    return ("-" if sign else "") + out


def _format_setting(x):
    """A spec's value as modelfile.FormatSetting writes it: a whole number
    of magnitude at most 2**31-1 in decimal digits (1000000), another as
    _go_float (1e+10, 0.25)."""
    if math.isfinite(x) and x == math.trunc(x) and abs(x) <= _MAX_INT32:
        return ("-" if math.copysign(1, x) < 0 else "") + str(abs(int(x)))
    return _go_float(x)


def _upgrade_spec(method):
    """A file's method as modelfile.Parse reads it (upgradeSpec): each value
    written in _go_float's form that _format_setting now writes otherwise
    (max_k=1e+06, written before greedytl wrote whole numbers in digits)
    in _format_setting's; any other text unchanged."""
    name, colon, rest = method.partition(":")
    if not colon:
        return method
    out = []
    for kv in rest.split(","):
        k, eq, v = kv.partition("=")
        parsed = _parse_go_float(v) if eq else None
        if parsed is not None and math.isfinite(parsed[0]) and _go_float(parsed[0]) == v:
            kv = k + "=" + _format_setting(parsed[0])
        out.append(kv)
    return name + ":" + ",".join(out)


def _go_map(m):
    """The map m (str -> float) as Go's %v writes a map[string]float64:
    map[k:v …], by increasing key."""
    return "map[{}]".format(" ".join("{}:{}".format(k, _go_float(v)) for k, v in sorted(m.items())))


def _describe(e):
    if isinstance(e, KeyError):
        return "member {} is missing".format(e)
    return str(e)


def count_of(n, one, many):
    """n and the noun for it, one or many, as Go's internal/plural.Count:
    "1 column", "2 columns"."""
    return "{} {}".format(n, one if n == 1 else many)


def _int(v, name):
    """Return v, the value of the member called name, when greedytl reads
    it into an int (is_go_int), else raise ModelFileError naming the
    member; the caller checks its range, as greedytl does after reading."""
    if not is_go_int(v):
        raise ModelFileError("{} is {}; want an integer (-2**63 to 2**63-1)".format(name, json.dumps(v)))
    return v


def _count(doc, name):
    """The column count doc[name] (num_features, num_sources): an integer
    greedytl reads into an int (_int; a member the writer always writes, so
    a null is refused: docs/design.md §10), 0 or more; missing, 0, as
    greedytl reads the version 1 GreedyTL files that lack it (the schema
    refuses it missing from every other file)."""
    v = _int(doc.get(name, 0), name)
    if v < 0:
        raise ModelFileError("{} is {}; want a count of columns (0 or more)".format(name, v))
    return v


def _vector(v, name, length=None):
    if v is None:  # Go writes an empty slice as null
        v = []
    a = np.asarray(v, dtype=np.float64)
    if a.ndim != 1 or (length is not None and a.shape[0] != length):
        raise ModelFileError("{} has shape {}, want {} numbers".format(name, a.shape, length))
    if not np.all(np.isfinite(a)):
        raise ModelFileError("{} holds a non-finite number".format(name))
    return a


def _matrix(v, name, shape):
    if v is None:
        v = []
    a = np.asarray(v, dtype=np.float64)
    if len(v) == 0:
        a = a.reshape(0, shape[1])
    if a.shape != shape:
        raise ModelFileError("{} has shape {}, want {}".format(name, a.shape, shape))
    if not np.all(np.isfinite(a)):
        raise ModelFileError("{} holds a non-finite number".format(name))
    return a


def _check_labels(positive, negative):
    """Refuse a binary file's "labels" as modelfile.LabelNames.Check does:
    an empty positive label, a label that cannot be one (_label_problem), no
    negative label, an empty one or the positive one among them, or one
    given twice."""
    if not positive:
        raise ModelFileError('"labels" has no positive label')
    for n in [positive] + negative:
        problem = _label_problem(n)
        if problem:
            raise ModelFileError('"labels": ' + problem)
    if not negative:
        raise ModelFileError('"labels" has no negative label')
    for i, n in enumerate(negative):
        if n == "" or n == positive:
            raise ModelFileError('"labels": negative label {} is empty or the positive one'.format(_go_quote(n)))
        if n in negative[:i]:
            raise ModelFileError('"labels": negative label {} is given twice'.format(_go_quote(n)))


def _check_class_names(names):
    """Refuse a multi-class file's classes as method.ClassLabels.checkNames
    does: fewer than two, an empty one, one given twice or one that cannot
    be a label (_label_problem)."""
    if len(names) < 2:
        raise ModelFileError("{} class names: at least two classes are needed".format(len(names)))
    seen = set()
    for k, n in enumerate(names):
        if n == "":
            raise ModelFileError("class {} has an empty name".format(k))
        if n in seen:
            raise ModelFileError("class name {} is given twice".format(_go_quote(n)))
        problem = _label_problem(n)
        if problem:
            raise ModelFileError("class {}: {}".format(k, problem))
        seen.add(n)


# Go's strconv.Quote's escapes of the control characters it names.
_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
               "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def _go_quote(s):
    """s quoted as Go's strconv.Quote quotes it (for messages): in double
    quotes, with a backslash before a quote or a backslash, the control
    characters Go names (\\t) so written, other characters that do not
    print as \\xhh (below 0x80), \\uhhhh or \\Uhhhhhhhh."""
    out = []
    for c in s:
        o = ord(c)
        if c in _GO_ESCAPES:
            out.append(_GO_ESCAPES[c])
        elif c == " " or c.isprintable():
            out.append(c)
        elif o < 0x80:
            out.append("\\x{:02x}".format(o))
        elif o < 0x10000:
            out.append("\\u{:04x}".format(o))
        else:
            out.append("\\U{:08x}".format(o))
    return '"' + "".join(out) + '"'


# The white space of Go's unicode.IsSpace (strings.TrimSpace, strings.Fields).
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+\Z")
_INFINITY = re.compile(r"[+-]?(?:inf|infinity)\Z", re.IGNORECASE)


def _go_trim_space(s):
    return s.strip(_GO_SPACE)


def _parse_go_float(t):
    """t read as greedytl's number.Parse reads it (strconv.ParseFloat's
    syntax, without digit separators): (value, beyond) where beyond is
    whether it is a literal beyond float64's range (ParseFloat's ErrRange),
    or None when t is not a number in that syntax.  As ParseFloat, it reads
    "nan" in any case, without a sign, as NaN, and "inf" and "infinity" in
    any case, with an optional sign, as ±Inf: what they mean is the
    caller's business."""
    if not t.isascii():
        return None
    if t.lower() == "nan":
        return math.nan, False
    if _INFINITY.match(t):
        return (-math.inf if t[0] == "-" else math.inf), False
    if _DECIMAL.match(t):
        x = float(t)
        return x, math.isinf(x)
    if _HEX.match(t):
        try:
            return float.fromhex(t), False
        except OverflowError:
            return (-math.inf if t[0] == "-" else math.inf), True
    return None


def _label_problem(label):
    """Why label cannot be a class label, in greedytl's words
    (dataset.CheckLabel), or None: a label holding a tab or a line break,
    or one that reads as a number (number.Parse, after trimming white
    space) but not a finite one — NaN (with a sign too), ±Inf in any
    spelling, a literal beyond float64's range.  (A str from JSON is
    valid text: the check of UTF-8 is the decoder's.)"""
    if any(c in label for c in "\t\n\r"):
        return ("label {} holds a tab or a line break: predict prints one class a line, and class names "
                "tab-separated".format(_go_quote(label)))
    t = _go_trim_space(label)
    parsed = _parse_go_float(t)
    if t.lstrip("+-").lower() == "nan":
        problem = "reads as NaN"
    elif parsed is not None and parsed[1]:
        problem = "is beyond the range of float64"
    elif parsed is not None and not math.isfinite(parsed[0]):
        problem = "reads as +Inf" if parsed[0] > 0 else "reads as -Inf"
    else:
        return None
    return ("label {} {}, not a finite number: a label is a finite number or a name that does not read as "
            "a number".format(_go_quote(label), problem))


def standardise(v, mean, scale):
    """(v − mean)/scale elementwise (broadcast), as greedytl's one
    standardisation formula (standardize.Standardise) computes it: as
    written, whose bits every ordinary value keeps, and only where that is
    ±Inf — v − mean alone may overflow while the quotient is an ordinary
    number — recomputed as ((v/2 − mean/2)/scale)·2, whose halvings and
    doubling are exact there.  ±Inf only where the standardised value itself
    is beyond float64."""
    # Overflow is rare: the floating-point flag tells it, with no pass over
    # the result to look for ±Inf. The flag is numpy's: Python floats are
    # made float64 first (their own arithmetic overflows silently to ±Inf).
    v, mean, scale = (np.asarray(a, dtype=np.float64) for a in (v, mean, scale))
    try:
        with np.errstate(over="raise"):
            return (v - mean) / scale
    except FloatingPointError:
        pass
    with np.errstate(over="ignore"):
        z = (v - mean) / scale
        return np.where(np.isinf(z), (v * 0.5 - mean * 0.5) / scale * 2, z)


class Standardiser:
    """A scaler (standardize.Scaler): the training mean and population
    standard deviation of each column; a scale of 0 marks a constant column,
    whose standardised value is 0.  As Scaler.Check, any other scale is
    finite and positive, a subnormal one too (that of a column of subnormal
    values)."""

    def __init__(self, doc, name):
        # doc is an object (the schema refuses a null scaler, as greedytl);
        # a null mean or scale is empty, as greedytl reads it.
        self.mean = _vector(doc.get("mean") or [], name + ".mean")
        self.scale = _vector(doc.get("scale") or [], name + ".scale", len(self.mean))
        bad = ~(self.scale >= 0)
        if np.any(bad):
            raise ModelFileError("{}.scale[{}] is {}: want 0 or a positive number".format(
                name, int(np.argmax(bad)), self.scale[np.argmax(bad)]))
        self._derive()

    def _derive(self):
        # The constant columns, and the scale each column is divided by
        # (1 for a constant one, whose quotient is then set to 0): made once,
        # for transform, which the linear scorer calls column by column.
        self._constant = self.scale == 0
        self._divisor = np.where(self._constant, 1.0, self.scale)

    def __setstate__(self, state):
        # A Standardiser pickled before _constant and _divisor were kept
        # (unpickling skips __init__) has neither: they are made again, from
        # the scale it has.
        self.__dict__.update(state)
        if "_constant" not in state or "_divisor" not in state:
            self._derive()

    def __len__(self):
        return len(self.mean)

    def transform(self, A, j=0, k=None):
        """The standardised A (Scaler.Transform; each element as
        Scaler.Value computes it: standardise, 0 in a constant column);
        given j and k, A holds the columns j:k of the scaler's only."""
        Z = standardise(A, self.mean[j:k], self._divisor[j:k])
        Z[:, self._constant[j:k]] = 0.0
        return Z


class Scorer:
    """The scores of a model file, computed in NumPy.

    Attributes: ``doc`` (the decoded file, as greedytl reads it: each
    object's members named by the fields they are read into, "b" for a
    "B", a repeated one decoded into what the earlier ones left, objects
    merged; the file's own objects when they are so named already), ``method`` (its method spec),
    ``num_features`` and ``num_sources`` (the column counts of X and H it was
    fitted on), ``classes`` (None for a binary model, else the K class
    names), ``positive`` (the index in ``classes`` of a two-class file's
    positive class when the file records it, else None).
    """

    classes = None
    positive = None
    # Whether selection() lists the columns in selection order (the greedy
    # methods) rather than by decreasing |weight|.
    greedy = False
    # Whether the scores are class probabilities (each row's K scores in
    # [0, 1], summing to 1 up to rounding): only a multi-class "ensemble"
    # file's, the weighted mean of its members' softmax (docs/design.md,
    # "Multi-class model files"); a binary model's are margins, and the
    # other forms' logits or negated distances.
    probabilities = False

    # The file's type in greedytl's reader (greedytl._schema), and whether
    # that reader requires a "hyperparameters" member (the linear, the
    # dictionary and the multi-class files; a GreedyTL file's options give
    # its own).
    schema = None
    needs_hyperparameters = True

    def __init__(self, doc):
        # The method (which decode has read) names the file's type, its
        # schema; doc is the file as greedytl reads it into that type.
        self.method = _upgrade_spec(_schema.HEAD.members(doc)["method"])
        self.doc = self._check_members(doc)

    def _check_members(self, doc):
        """Refuse a member null, missing or of the wrong kind where
        greedytl's reader does (greedytl._schema), and a file without the
        hyperparameters its decoder requires (decode has checked the
        header as modelfile.Parse does); return the document with its
        members named by their fields (_schema.check)."""
        doc = _schema.check(self.schema, doc)
        if self.needs_hyperparameters and doc.get("hyperparameters") is None:
            raise ModelFileError("the file has no hyperparameters")
        return doc

    def selection(self):
        """The columns the model uses, as the Go model's ``Selected``: a
        list of ``{"kind", "index", "weight"}`` (the greedy methods' also
        with ``"reg_error"`` and ``"loo_error"``, their path after the
        column was added), in selection order for the greedy methods, else
        the columns of non-zero weight by decreasing |weight|; a
        multi-class model gives one such list per class.  None when the
        model has no per-column weights (the dictionary method, nearest
        neighbour, centroids)."""
        return None

    def weights_constant(self):
        """method.WeightsConstant: whether the model's weights alone make
        it constant to working precision (docs/design.md §9, "Constant
        models"): Σ|w_j|·g_j ≤ ε = 2⁻⁵², g_j the population standard
        deviation of column j as weighted (1 standardised, γ for a GreedyTL
        feature), summed in greedytl's order.  None when the rule does not
        apply (no per-column weights)."""
        return None

    def inspection(self, source_names=None):
        """What ``greedytl inspect --json`` prints of the model file, from
        the file alone.  The feature columns are named (``"name"``) by
        the file's ``feature_names``, when it has them; ``source_names``
        names the source columns as inspect names them from the sources
        directory the file records when that directory still holds those
        sources; None: by the file's own ``source_names`` (the header of
        the source scores it was fitted on), when it has them.  The method and hyperparameters are the
        file's: those of a version 1 GreedyTL file, which inspect gives
        their version 2 names (``greedytl:gamma=0.25``, ``gamma`` for
        ``feature_factor``), are as that older file names them."""
        doc = self.doc
        names = {"feature": doc.get("feature_names"),
                 "source": source_names if source_names is not None else doc.get("source_names")}

        def named(cols, keys):
            out = []
            for c in cols:
                col = {k: c[k] for k in keys if k in c}
                n = names.get(c["kind"])
                if n is not None and 0 <= c["index"] < len(n) and n[c["index"]]:
                    col["name"] = n[c["index"]]
                out.append(col)
            return out

        sel = self.selection()
        # The file's own members are copied: the inspection shares nothing
        # with the document.
        out = {"method": self.method, "hyperparameters": copy.deepcopy(doc.get("hyperparameters"))}
        if self.classes is not None:
            out["classes"] = list(self.classes)
            if self.positive is not None:
                out["positive"] = self.classes[self.positive]
            # Each class's columns as a binary model's (below): the order
            # ("greedy": a class model of a greedy method, one class
            # against the rest) and, in selection order, each step's errors.
            out["per_class"] = [] if sel is None else [
                {"class": c, "greedy": self.class_greedy(k),
                 "selected": named(cols, ("kind", "index", "weight", "reg_error", "loo_error"))}
                for k, (c, cols) in enumerate(zip(self.classes, sel))]
            constant = self.class_weights_constant() if sel is not None else None
            for k, pc in enumerate(out["per_class"]):
                if constant is not None and constant[k]:
                    pc["constant"] = True
                if self.form == "one-vs-rest" and self.models[k].method.split(":")[0] == "greedytl-auto":
                    # inspect shows a greedytl-auto class model as a binary
                    # one: its hyperparameters and committee.
                    d = self.models[k].doc
                    if d.get("hyperparameters"):
                        pc["hyperparameters"] = copy.deepcopy(d["hyperparameters"])
                    if d.get("committee") is not None:
                        pc["committee"] = copy.deepcopy(d["committee"])
        else:
            # The column counts, as inspect gives them for every binary
            # model, a dictionary model's (no per-column weights) included.
            for k in ("num_features", "num_sources"):
                if getattr(self, k, 0):
                    out[k] = getattr(self, k)
            out["greedy"] = sel is not None and self.greedy
            out["selected"] = named(sel or [], ("kind", "index", "weight", "reg_error", "loo_error"))
            if self.weights_constant():
                out["constant"] = True
        for k in ("sources", "committee"):
            if doc.get(k) is not None:
                out[k] = copy.deepcopy(doc[k])
        return out

    def scores(self, X=None, H=None):
        """Return the scores of the rows of X (features) and H (source
        scores): shape (rows,) for a binary model and for a two-class one
        that records its positive class (that class's score minus the
        other's, as greedytl predict prints it), (rows, K) for a
        multi-class one.  Raises ``ValueError`` for column counts other than
        the model's, non-finite values and scores that overflow."""
        X, H, rows = self._inputs(X, H)
        f = self._finite_scores(X, H, rows)
        p = self.positive
        if p is not None:
            # A two-class file that records its positive class: one score
            # a row, as greedytl predict prints it.
            return f[:, p] - f[:, 1 - p]
        return f

    def _finite_scores(self, X, H, rows):
        """The scores of the validated inputs (_inputs), as scores returns
        them: a file's nested models are given its inputs so, validated
        once, and so is the estimator, which has validated X and the
        sources' scores itself (TransferClassifier._file_scores): X and H
        float64 arrays (or None) of rows rows and of the model's column
        counts, finite."""
        # An overflow (to ±Inf, or Inf − Inf to NaN) is the ValueError below,
        # naming its row, without NumPy's RuntimeWarning before it.
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            f = self._scores(X, H, rows)
        if not np.all(np.isfinite(f)):
            i = int(np.argmax(~np.isfinite(f).reshape(rows, -1).all(axis=1)))
            raise ValueError("the score of row {} overflows: the inputs are too far "
                             "outside the training range".format(i))
        return f

    def _inputs(self, X, H):
        rows = None
        out = []
        for name, A, want in (("X", X, self.num_features), ("H", H, self.num_sources)):
            if A is None:
                if want:
                    raise ValueError("the model was fitted on {} of {}, which is not given".format(
                        count_of(want, "column", "columns"), name))
                out.append(None)
                continue
            A = np.asarray(A, dtype=np.float64)
            if A.ndim != 2:
                raise ValueError("{} must be 2-D, has shape {}".format(name, A.shape))
            if A.shape[1] != want:
                raise ValueError("{} has {}, the model was trained with {}".format(
                    name, count_of(A.shape[1], "column", "columns"), want))
            if rows is not None and A.shape[0] != rows:
                raise ValueError("X has {} rows but H has {}".format(rows, A.shape[0]))
            rows = A.shape[0]
            if not np.all(np.isfinite(A)):
                i, j = np.argwhere(~np.isfinite(A))[0]
                v = A[i, j]
                raise ValueError("{} row {} column {} is {}".format(name, i, j, "NaN" if np.isnan(v) else "+Inf" if v > 0 else "-Inf"))
            out.append(A)
        if rows is None:
            raise ValueError("no input: X and H are both absent")
        return out[0], out[1], rows


class LinearScorer(Scorer):
    """method.Linear: f = b + Σ_j wx_j·zx_j + Σ_j wh_j·zh_j, the two sums
    accumulated column by column as Linear.Predict does."""

    @property
    def schema(self):
        # greedytl-auto's file may hold its committee; the others' may not.
        return _schema.AUTO if self.method.split(":")[0] == "greedytl-auto" else _schema.LINEAR

    def __init__(self, doc):
        super().__init__(doc)
        doc = self.doc
        self.x = Standardiser(doc["x"], "x")
        self.h = Standardiser(doc["h"], "h")
        self.wx = _vector(doc["wx"], "wx", len(self.x))
        self.wh = _vector(doc["wh"], "wh", len(self.h))
        self.b = float(doc["b"])
        if not math.isfinite(self.b):
            raise ModelFileError("b is not finite")
        self.num_features, self.num_sources = len(self.x), len(self.h)
        if self.num_features + self.num_sources == 0:
            raise ModelFileError("the model has no columns")

    def selection(self):
        return _linear_selection(self.wx, self.wh)

    def weights_constant(self):
        return _sum_abs(self.wx) + _sum_abs(self.wh) <= _EPSILON

    def _scores(self, X, H, rows):
        f = np.full(rows, self.b)
        for A, s, w in ((X, self.x, self.wx), (H, self.h, self.wh)):
            if len(s) == 0:
                continue
            # Linear.Predict's acc = 0, acc += w_j·z_j column by column,
            # over the columns of non-zero weight: a column of weight 0 is
            # not read (its z_j may be ±Inf, and 0·Inf is NaN); the 0.0
            # added in its place leaves acc, never -0.0, as it was.
            acc = np.zeros(rows)
            _add_columns(acc, len(s), lambda j, k: np.where(w[j:k] == 0, 0.0, s.transform(A[:, j:k], j, k) * w[j:k]))
            f += acc
        return f


class GreedyScorer(Scorer):
    """The root package's GreedyTL model: f = Σ over the selected columns,
    in selection order, of weight·standardise(v, mean, scale)."""

    greedy = True
    needs_hyperparameters = False
    schema = _schema.GREEDY

    def _check_members(self, doc):
        """The checked document (Scorer._check_members; a version 1 file's
        as version 1 is read), and its options and hyperparameters in
        version 2's form, which the checks after read (_options,
        _hyperparameters: _upgrade's for a version 1 file)."""
        if _schema.HEAD.members(doc)["version"] != 1:
            doc = super()._check_members(doc)
            self._options, self._hyperparameters = doc["options"], doc.get("hyperparameters")
            return doc
        # Version 1 is read without the check of missing members (but for
        # the header's, modelfile.Parse's) and has options.feature_factor
        # too.
        # (decode has checked the header, as modelfile.Parse does for every
        # version.)
        doc = _schema.check(_schema.GREEDY_V1, doc, complete=False)
        self._options, self._hyperparameters = self._upgrade(doc)
        return doc

    def _upgrade(self, doc):
        """The options and hyperparameters (None when the file records
        none) of the checked version 1 document doc in version 2's form,
        as json.go's upgrade makes them: γ, version 1's feature_factor (0
        when missing), is gamma in both; a file that uses version 2's key
        gamma in its options or its hyperparameters (a map: its keys as
        written) is refused.  (The document itself keeps the file's keys:
        the inspection gives its hyperparameters as the file names them.)"""
        options = dict(doc.get("options") or {})
        if options.get("gamma") is not None:
            raise ModelFileError('{} model: version 1 file: options has version 2\'s "gamma"; version 1 calls it '
                                 '"feature_factor"'.format(self.method))
        options["gamma"] = options.pop("feature_factor", 0)
        hyperparameters = doc.get("hyperparameters")
        if hyperparameters is None:
            return options, None
        if "gamma" in hyperparameters:
            raise ModelFileError('{} model: version 1 file: hyperparameters has version 2\'s "gamma"; version 1 '
                                 'calls it "feature_factor"'.format(self.method))
        return options, {("gamma" if k == "feature_factor" else k): v for k, v in hyperparameters.items()}

    def __init__(self, doc):
        super().__init__(doc)
        # What the decoder (json.go's DecodeFile, method package's
        # decodeGreedy) refuses past the members' kinds, named as greedytl
        # names it, after the file's method.
        try:
            self._check_model()
        except ModelFileError as e:
            raise ModelFileError("{} model: {}".format(self.method, e)) from None

    def _check_model(self):
        """Read the columns, refusing what greedytl.Model's validate
        refuses, in its order: the options' values, the column counts, each
        column (range, repeat, scale), no more columns than max_k (when not
        0), each column's path (negative errors); then the hyperparameters
        and the spec."""
        doc = self.doc
        self._check_options()
        self.num_features = _int(doc.get("num_features", 0), "num_features")
        self.num_sources = _int(doc.get("num_sources", 0), "num_sources")
        if self.num_features < 0 or self.num_sources < 0 or self.num_features + self.num_sources == 0:
            raise ModelFileError("invalid column counts: {} features, {} sources".format(
                self.num_features, self.num_sources))
        self.columns = []
        seen = set()
        # A null "columns" is no column, and a member missing (as only a
        # version 1 file may have it: the schema refuses it in version 2)
        # is its zero value, a kind "feature" (greedytl.Kind's zero), as
        # greedytl reads them.
        cols = doc.get("columns") or []
        for j, c in enumerate(cols):
            kind, index = c.get("kind", "feature"), _int(c.get("index", 0), "columns[{}].index".format(j))
            limit = {"feature": self.num_features, "source": self.num_sources}.get(kind)
            if limit is None:
                raise ModelFileError("column {} has invalid kind {!r}".format(j, kind))
            if not 0 <= index < limit:
                raise ModelFileError("column {} ({} {}) is out of range: the model has {} {}s".format(
                    j, kind, index, limit, kind))
            if (kind, index) in seen:
                raise ModelFileError("column {} ({} {}) is selected twice".format(j, kind, index))
            seen.add((kind, index))
            w, mean, scale = (float(c.get(k, 0)) for k in ("weight", "mean", "scale"))
            for k, v in (("weight", w), ("mean", mean), ("scale", scale)):
                if not math.isfinite(v):  # the schema refuses them: no JSON number is one
                    raise ModelFileError("column {} ({} {}): {} is {}".format(j, kind, index, k, v))
            if not scale > 0:
                raise ModelFileError("column {} ({} {}): scale must be positive, got {}".format(
                    j, kind, index, _go_float(scale)))
            self.columns.append((kind, index, w, mean, scale))
        max_k = _int(self._options.get("max_k", 0), "options.max_k")
        if 0 < max_k < len(self.columns):
            raise ModelFileError("inconsistent model: {} columns, more than its options' max_k = {}".format(
                len(self.columns), max_k))
        for j, ((kind, index, *_), c) in enumerate(zip(self.columns, cols)):
            reg, loo = float(c.get("reg_error", 0)), float(c.get("loo_error", 0))
            if reg < 0 or loo < 0:
                raise ModelFileError("column {} ({} {}): negative error (reg_error {}, loo_error {})".format(
                    j, kind, index, _go_float(reg), _go_float(loo)))
        self._check_hyperparameters()
        self._check_spec()

    def _check_options(self):
        """Refuse options that greedytl.Options.check refuses of a model
        (its λ always recorded: auto_lambda not heeded), the first in
        greedytl.SettingKeys' order, with its message; an option missing
        (as only a version 1 file may lack it) is 0."""
        options = self._options
        for k in sorted(_GREEDY_SETTINGS):  # greedytl.SettingKeys
            if k in ("auto_lambda", "stop_at_min_loo"):  # booleans: 0 or 1 whatever the file
                continue
            v = float(options.get(k, 0))
            _, must, ok = _GREEDY_SETTINGS[k]
            if not ok(v):
                raise ModelFileError("invalid options: {} must be {} and finite, got {}{}".format(
                    _GO_OPTION_FIELDS[k], must, _go_float(v), " (DefaultOptions uses 1)" if k == "lambda" else ""))

    def _check_hyperparameters(self):
        """Refuse a file whose hyperparameters, when it records them, are
        not those of its options (greedytl.Options.Hyperparameters: lambda,
        delta and gamma, and sample and max_k when not 0), as json.go's
        DecodeFile does (a version 1 file's upgraded: _upgrade)."""
        got = self._hyperparameters
        if got is None:
            return
        got = {k: float(v) for k, v in got.items()}
        options = self._options
        want = {k: float(options.get(k, 0)) for k in ("lambda", "delta", "gamma")}
        for k in ("sample", "max_k"):
            if options.get(k, 0) > 0:
                want[k] = float(options[k])
        if got != want:
            raise ModelFileError("hyperparameters {} disagree with the options ({})".format(
                _go_map(got), _go_map(want)))

    def _check_spec(self):
        """Refuse a version 2 file of a GreedyTL method whose spec is not
        the one its options make, as greedytl's reader does (method
        package's decodeGreedy: the spec is greedytl.Options.MethodName of
        the options against the method's defaults, the only function that
        names such a file); a version 1 file is named from its options
        there, and forward-reg's spec (no settings) is its name."""
        name = self.method.partition(":")[0]
        defaults = _GREEDY_DEFAULTS.get(name)
        if defaults is None or self.doc["version"] == 1:
            return
        options = self._options
        changes = []
        for k in sorted(_GREEDY_SETTINGS):  # greedytl.Options.Changes
            if k == "lambda" and options["auto_lambda"]:
                continue
            v = float(options[k])
            if v != defaults.get(k, 0):
                changes.append("{}={}".format(k, _format_setting(v)))
        want = name + (":" + ",".join(changes) if changes else "")  # modelfile.FormatSpec
        if self.method != want:
            raise ModelFileError("method {} does not match the options, which make {}".format(
                _go_quote(self.method), _go_quote(want)))

    def selection(self):
        # Each column's path after it, read only here: scoring needs none of
        # it, and a version 1 file may lack it (0, as greedytl reads it).
        return [{"kind": kind, "index": index, "weight": w,
                 "reg_error": float(c.get("reg_error", 0)), "loo_error": float(c.get("loo_error", 0))}
                for (kind, index, w, _, _), c in zip(self.columns, self.doc.get("columns") or [])]

    def weights_constant(self):
        gamma = float(self._options.get("gamma", 0))
        total = 0.0
        for kind, _, w, _, _ in self.columns:
            total += abs(w) * (gamma if kind == "feature" else 1.0)
        return total <= _EPSILON

    def _scores(self, X, H, rows):
        f = np.zeros(rows)
        for kind, index, w, mean, scale in self.columns:
            v = (X if kind == "feature" else H)[:, index]
            f += w * standardise(v, mean, scale)
        return f


def _gram(D):
    return D @ D.T


def omp(D, gram, x, sparsity):
    """The OMP code of signal x on the unit-norm atoms (rows of D), as
    sparsecode.OMP computes it: batch OMP with a growing Cholesky factor,
    skipping atoms dependent on the chosen ones, stopping when every residual
    correlation is below 1e-12·‖x‖."""
    K = D.shape[0]
    gamma = np.zeros(K)
    dx = D @ x
    tol = _OMP_TOL * math.sqrt(float(x @ x))
    corr = dx.copy()
    excluded = np.zeros(K, dtype=bool)
    support = []
    chol = np.zeros((sparsity, sparsity))
    coef = np.zeros(sparsity)
    row = np.zeros(sparsity)
    while len(support) < sparsity:
        best, best_abs = -1, tol
        for k in range(K):
            if not excluded[k] and abs(corr[k]) > best_abs:
                best, best_abs = k, abs(corr[k])
        if best < 0:
            break
        excluded[best] = True
        s = len(support)
        gbb = gram[best, best]
        d = gbb
        for a, i in enumerate(support):
            w = gram[i, best]
            for c in range(a):
                w -= chol[a, c] * row[c]
            w /= chol[a, a]
            row[a] = w
            d -= w * w
        if not d > _OMP_DEPENDENT * gbb:
            continue
        chol[s, :s] = row[:s]
        chol[s, s] = math.sqrt(d)
        support.append(best)
        s += 1
        for a, i in enumerate(support):
            z = dx[i]
            for c in range(a):
                z -= chol[a, c] * coef[c]
            coef[a] = z / chol[a, a]
        for a in range(s - 1, -1, -1):
            z = coef[a]
            for c in range(a + 1, s):
                z -= chol[c, a] * coef[c]
            coef[a] = z / chol[a, a]
        for k in range(K):
            c = dx[k]
            for a, i in enumerate(support):
                c -= gram[k, i] * coef[a]
            corr[k] = c
    for a, i in enumerate(support):
        gamma[i] = coef[a]
    return gamma


class DictionaryScorer(Scorer):
    """The dictionary baseline (method/dictionary.go): signals
    [zx/√d, zh/√n], their OMP codes on every dictionary of the path,
    standardised, then a linear function."""

    schema = _schema.DICTIONARY

    def __init__(self, doc):
        super().__init__(doc)
        doc = self.doc
        self.x = Standardiser(doc["x"], "x")
        self.h = Standardiser(doc["h"], "h")
        self.num_features, self.num_sources = len(self.x), len(self.h)
        p = self.num_features + self.num_sources
        if p == 0:
            raise ModelFileError("the model has no columns")
        dicts = doc["dictionaries"]
        if not dicts:
            raise ModelFileError("no dictionaries")
        K = len(dicts[0])
        self.path = [_matrix(d, "dictionaries[{}]".format(k), (K, p)) for k, d in enumerate(dicts)]
        self.sparsity = _int(doc["sparsity"], "sparsity")
        if not 1 <= self.sparsity <= K:
            raise ModelFileError("sparsity {}, want 1 to {}".format(self.sparsity, K))
        self.codes = Standardiser(doc["codes"], "codes")
        self.w = _vector(doc["w"], "w", K * len(self.path))
        if len(self.codes) != len(self.w):
            raise ModelFileError("{} code statistics for {} weights".format(len(self.codes), len(self.w)))
        self.b = float(doc["b"])

    def _scores(self, X, H, rows):
        d, n = self.num_features, self.num_sources
        parts = []
        if d:
            parts.append((1 / math.sqrt(d)) * self.x.transform(X))
        if n:
            parts.append((1 / math.sqrt(n)) * self.h.transform(H))
        signals = np.hstack(parts)
        codes = []
        for D in self.path:
            g = _gram(D)
            codes.append(np.array([omp(D, g, signals[i], self.sparsity) for i in range(rows)]).reshape(rows, -1))
        zc = self.codes.transform(np.hstack(codes))
        return zc @ self.w + self.b


def _softmax_rows(S):
    """Row-wise softmax, as method.softmaxRows: exp(v − max), then divided
    by the row's sum."""
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def _add_columns(acc, cols, terms):
    """Add to each running sum in acc, in place, its terms of the columns 0
    to cols − 1 one by one in that order, as the Go loops add (s = 0;
    s += t_j), with the sum of acc's sign of zero (0 + -0.0 is 0.0).
    terms(j, k) gives the terms of the columns j:k, of shape acc.shape +
    (k − j,), a new array that this overwrites; it is asked for at most
    _BLOCK terms at once, or one column's.

    Both orders of work below add the same terms in the same order, so they
    give the same sums bit for bit; they differ in speed.  Column by column
    (acc += t_j), each addition is vectorised across acc but costs a few
    NumPy calls a column (terms(j, j + 1) among them); np.add.accumulate
    along a row is latency-bound (each sum waits for the one before) but
    takes a block of columns in one call.  So accumulate for fewer than
    _TALL sums, column by column from there on.  Measured (CPU seconds,
    python/benchmarks/score_wide.py and the same scorers with _TALL forced,
    loaded 2-core machine), column by column / accumulate: a linear file of
    2,000 × 2,000 rows × features 0.11 / 0.047, 5,000 × 1,000 0.082 / 0.057,
    12,000 × 300 0.038 / 0.033, 20,000 × 100 0.013 / 0.019, 20,000 × 2,000
    0.36 / 0.44; nearest-neighbour distances of 100 rows to 2,000 rows
    (200,000 sums) of 500 features 0.25 / 0.84; 20 rows × 20,000 features
    0.26 / 0.004.  The crossover lies between 12,000 and 20,000 sums.
    Overflows are Scorer.scores's to report (and to silence)."""
    if acc.size >= _TALL:
        for j in range(cols):
            acc += terms(j, j + 1)[..., 0]
        return
    step = max(1, _BLOCK // max(1, acc.size))
    for j in range(0, cols, step):
        T = terms(j, min(cols, j + step))
        T[..., 0] += acc  # from the running sum: acc + t_j + t_j+1 + …
        np.add.accumulate(T, axis=-1, out=T)
        acc[...] = T[..., -1]


# _MAX_NEAREST_RATIO bounds how far from its training rows a nearest-neighbour
# model scores a row: 2**26 times the largest norm of a standardised training
# row (method's maxNearestRatio, whose comment says why).
_MAX_NEAREST_RATIO = 2.0 ** 26


def _sq_dist(Z, R):
    """Squared Euclidean distances between the rows of Z and of R (rows × |R|),
    accumulated column by column as method.distance sums them, in blocks of rows of Z
    whose |R| sums take at most _BLOCK floats (and their differences, too, a
    block of columns at a time)."""
    out = np.zeros((Z.shape[0], R.shape[0]))
    step = max(1, _BLOCK // max(1, R.shape[0]))
    for a in range(0, Z.shape[0], step):
        Zb = Z[a:a + step]
        _add_columns(out[a:a + step], Z.shape[1], lambda j, k: _square(Zb[:, None, j:k] - R[None, :, j:k]))
    return out


def _dist(Z, R):
    """Euclidean distances between the rows of Z and of R (rows × |R|), as
    method.distance computes them: the square roots of _sq_dist, but where a
    squared distance overflows or falls below the normal range, the distance
    in units of the largest |difference| of the two rows (squares summed in
    order), so that the nearest row does not depend on the scale of the
    rows; +Inf only where a difference overflows.  Those pairs (every pair
    of equal rows among them) are found and recomputed a tile of at most
    _BLOCK // (2p) pairs at a time, so that beyond the rows × |R| results
    (_sq_dist's, whose squares become their roots in place, a tile at a
    time) their indices take at most _BLOCK // p integers, and their
    differences, with the rows of R subtracted, at most _BLOCK floats."""
    out = _sq_dist(Z, R)
    p = Z.shape[1]
    step = max(1, _BLOCK // (2 * max(1, p)))
    cols = max(1, min(R.shape[0], step))
    rows = max(1, step // cols)
    for a in range(0, Z.shape[0], rows):
        for c in range(0, R.shape[0], cols):
            # The tile's squared distances become their roots in place,
            # once its flagged pairs are found; the pairs are then
            # recomputed into it.
            t = out[a:a + rows, c:c + cols]
            I, Rr = np.nonzero(~(t < np.inf) | (t < _MIN_NORMAL))
            np.sqrt(t, out=t)
            if len(I):
                _dist_scaled(out, Z, R, I + a, Rr + c)
    return out


def _dist_scaled(out, Z, R, i, r):
    """Writes into out[i, r] the distances between the rows i of Z and r of
    R in units of the largest |difference| of each pair (see _dist)."""
    E = Z[i]
    E -= R[r]
    # |E| in place: the squares below are the same bits
    u = np.abs(E, out=E).max(axis=1) if E.shape[1] else np.zeros(len(i))
    out[i, r] = u
    ok = (u > 0) & (u < np.inf)
    if ok.any():
        if not ok.all():
            E = E[ok]
        E = _square(np.divide(E, u[ok, None], out=E))
        np.add.accumulate(E, axis=1, out=E)
        out[i[ok], r[ok]] = u[ok] * np.sqrt(E[:, -1])


def _square(E):
    """E squared, in place."""
    return np.multiply(E, E, out=E)


class MultiScorer(Scorer):
    """A multi-class model file (docs/design.md, "Multi-class model files"):
    scores of shape (rows × K), column k for ``classes[k]``."""

    @property
    def schema(self):
        return _schema.MULTI_FORMS[self._method_form]

    def __init__(self, doc, form):
        # form: that of the file's method (decode), whose type the file is
        # read into (method's DecodeMulti); a file of another form is
        # refused after that type's members are checked, as greedytl does.
        self._method_form = form
        super().__init__(doc)
        doc = self.doc
        if doc["form"] != form:
            raise ModelFileError("form is {}, want {}".format(_go_quote(doc["form"]), _go_quote(form)))
        classes = doc["classes"] or []
        _check_class_names(classes)
        self.classes = list(classes)
        K = len(classes)
        # A two-class file may record its positive class in "labels"
        # (method.TwoClass): its scores are then one a row, that class's
        # minus the other's, as greedytl predict prints them.
        self.positive = None
        labels = doc.get("labels")
        if labels is not None:
            if K != 2:
                raise ModelFileError('a multi-class file names its classes in "classes", not "labels" (only a file of '
                                     'two classes records its positive class there; this one has {})'.format(K))
            pos, neg = labels["positive"], labels["negative"] or []
            if pos not in self.classes or neg != [self.classes[1 - self.classes.index(pos)]]:
                raise ModelFileError('"labels" (positive {}, negative {}) are not the file\'s two classes {}'.format(
                    _go_quote(pos), neg, self.classes))
            self.positive = self.classes.index(pos)
        self.num_features = _count(doc, "num_features")
        self.num_sources = _count(doc, "num_sources")
        self.form = doc["form"]
        self.probabilities = self.form == "ensemble"
        if self.form in ("linear", "nearest-neighbour", "centroid-cosine"):
            self.x = Standardiser(doc["x"], "x")
            self.h = Standardiser(doc["h"], "h")
            if (len(self.x), len(self.h)) != (self.num_features, self.num_sources):
                raise ModelFileError("scalers of {} and {} columns for {} features and {} sources".format(
                    len(self.x), len(self.h), self.num_features, self.num_sources))
        p = self.num_features + self.num_sources
        if self.form == "linear":
            # "rows" or "blocks": the standardised row is L2-normalised
            # whole, or its features and its source scores each on their own
            # (greedytl-nway's members); absent: not normalised.
            self.normalise = doc.get("normalise", "")
            if self.normalise not in ("", "rows", "blocks"):
                raise ModelFileError("normalise is {!r}: want 'rows', 'blocks' or none".format(self.normalise))
            self.wx = _matrix(doc["wx"], "wx", (K, self.num_features))
            self.wh = _matrix(doc["wh"], "wh", (K, self.num_sources))
            self.b = _vector(doc["b"], "b", K)
        elif self.form == "nearest-neighbour":
            self.rows = _matrix(doc["rows"], "rows", (len(doc["rows"]), p))
            rc = np.asarray(doc["row_classes"] or [], dtype=np.int64)  # integers: the schema's Slice(INT)
            if rc.shape != (self.rows.shape[0],) or np.any(rc < 0) or np.any(rc >= K):
                raise ModelFileError("row_classes must hold one class index (0 to {}) per row".format(K - 1))
            missing = sorted(set(range(K)) - set(rc.tolist()))
            if missing:
                raise ModelFileError("class {!r} has no training row".format(self.classes[missing[0]]))
            self.row_classes = rc
            # The largest norm of a training row, which bounds the rows
            # scored (_MAX_NEAREST_RATIO): the model's, found once.
            with np.errstate(over="ignore", invalid="ignore", under="ignore"):
                self.radius = _dist(self.rows, np.zeros((1, p)))[:, 0].max(initial=0.0)
        elif self.form == "centroid-cosine":
            self.centroids = _matrix(doc["centroids"], "centroids", (K, p))
        elif self.form == "one-vs-rest":
            models = doc["models"]
            if len(models) != K:
                raise ModelFileError("{} binary models for {} classes".format(len(models), K))
            self.models = self._parts(models, "models", None)
            self.score_scale = _vector(doc["score_scale"], "score_scale", K)
            if np.any(self.score_scale <= 0):
                raise ModelFileError("score_scale must be positive")
        elif self.form == "ensemble":
            self.members = self._parts(doc["members"], "members", self.classes)
            if not self.members:
                raise ModelFileError("an ensemble without members")
            self.weights = _vector(doc["weights"], "weights", len(self.members))
            if np.any(self.weights <= 0):
                raise ModelFileError("ensemble weights must be positive")
            # Summed in order, as greedytl's ensemble decoder sums them
            # (np.sum's pairwise sum may differ in the last bits).
            total = 0.0
            for w in self.weights.tolist():
                total += w
            if abs(total - 1) > 1e-12:
                raise ModelFileError("the weights sum to {!r}, not 1".format(total))

    def _parts(self, docs, name, classes):
        """The nested model files docs (the file's member called name),
        decoded, each checked to have the given classes (None: a binary
        model, as a one-vs-rest file's models; an ensemble's members have
        the file's) and the file's column counts."""
        parts = []
        for i, d in enumerate(docs):
            try:
                parts.append(decode(d))
            except ModelFileError as e:
                raise ModelFileError("{}[{}]: {}".format(name, i, e)) from None
        for i, m in enumerate(parts):
            if m.classes != classes:
                raise ModelFileError("{}[{}] has classes {!r}, the file {!r}".format(name, i, m.classes, classes))
            if classes is None and m.method != self.method:
                raise ModelFileError("{}[{}] is a {} model, not {}".format(name, i, m.method, self.method))
            if classes is None:
                # One-vs-rest's classes and models match by position: each
                # model records the labels it was fitted for, read (and
                # checked) with the model, as greedytl reads them
                # (method.checkOneVsRestLabels).
                lab = m.doc.get("labels")
                rest = self.classes[:i] + self.classes[i + 1:]
                if lab is None or lab["positive"] != self.classes[i] or lab["negative"] != rest:
                    raise ModelFileError("{}[{}] is fitted for labels {!r}, but it is the model of class {!r} "
                                         "against {!r}".format(name, i, lab, self.classes[i], rest))
            if classes is not None and m.form != "linear":
                raise ModelFileError("{}[{}] has form {}: an ensemble's members are linear (their scores are "
                                     "logits)".format(name, i, _go_quote(m.form)))
            if (m.num_features, m.num_sources) != (self.num_features, self.num_sources):
                raise ModelFileError("{}[{}] has {} features and {} sources, the file {} and {}".format(
                    name, i, m.num_features, m.num_sources, self.num_features, self.num_sources))
        if any(m.doc is not d for m, d in zip(parts, docs)):  # doc holds them as their scorers read them
            self.doc = dict(self.doc, **{name: [m.doc for m in parts]})
        return parts

    def class_weights_constant(self):
        """method.ClassWeightsConstant: per class, whether its model is
        constant by its weights alone — one class against the rest, each
        class model's weights_constant; a native linear model's class only
        when its row of weights is all 0 (its scales may be moderated) —
        or None for the other forms."""
        if self.form == "one-vs-rest":
            c = [m.weights_constant() for m in self.models]
            return None if any(v is None for v in c) else c
        if self.form == "linear":
            return [_sum_abs(wx) + _sum_abs(wh) == 0 for wx, wh in zip(self.wx, self.wh)]
        return None

    def class_greedy(self, k):
        """Whether class k's columns (selection()[k]) are in selection
        order, as a binary model's ``greedy``: one class against the rest,
        class k's model's; by decreasing |weight| for the other forms."""
        return self.form == "one-vs-rest" and self.models[k].greedy

    def selection(self):
        if self.form == "linear":
            return [_linear_selection(wx, wh) for wx, wh in zip(self.wx, self.wh)]
        if self.form == "one-vs-rest":
            sel = [m.selection() for m in self.models]
            return None if any(s is None for s in sel) else sel
        if self.form == "ensemble":
            # method.ensembleModel.Selected: per class, the members' weights
            # scaled by the member weights and summed, in member order.
            sums = None
            for w, m in zip(self.weights, self.members):
                sel = m.selection()
                if sel is None:
                    return None
                if sums is None:
                    sums = [(np.zeros(m.num_features), np.zeros(m.num_sources)) for _ in sel]
                for (sx, sh), cols in zip(sums, sel):
                    for c in cols:
                        (sh if c["kind"] == "source" else sx)[c["index"]] += w * c["weight"]
            return [_linear_selection(sx, sh) for sx, sh in sums]
        return None  # nearest-neighbour, centroid-cosine: whole rows compared

    def _z(self, X, H, rows):
        parts = []
        if self.num_features:
            parts.append(self.x.transform(X))
        if self.num_sources:
            parts.append(self.h.transform(H))
        return np.hstack(parts) if parts else np.zeros((rows, 0))

    def _scores(self, X, H, rows):
        K = len(self.classes)
        if self.form == "linear":
            zx = self.x.transform(X) if self.num_features else np.zeros((rows, 0))
            zh = self.h.transform(H) if self.num_sources else np.zeros((rows, 0))
            if self.normalise == "rows":
                z = _unit_rows(np.hstack([zx, zh]))
                zx, zh = z[:, :self.num_features], z[:, self.num_features:]
            elif self.normalise == "blocks":
                zx, zh = _unit_rows(zx), _unit_rows(zh)
            S = np.tile(self.b, (rows, 1))
            if self.num_features:
                S = S + zx @ self.wx.T
            if self.num_sources:
                S = S + zh @ self.wh.T
            return S
        if self.form == "nearest-neighbour":
            Z = self._z(X, H, rows)
            dist = _dist(Z, self.rows)
            S = np.empty((rows, K))
            for k in range(K):
                S[:, k] = -dist[:, self.row_classes == k].min(axis=1)
            # A row farther than _MAX_NEAREST_RATIO times the largest norm of
            # a training row scores -Inf for every class (refused below), as
            # method's nearestNeighbourModel.Scores does: its distances are
            # too close to its norm to rank the training rows.
            if self.radius > 0:
                far = _dist(Z, np.zeros((1, Z.shape[1])))[:, 0] > _MAX_NEAREST_RATIO * self.radius
                S[far, :] = -np.inf
            return S
        if self.form == "centroid-cosine":
            return -_dist(_unit_rows(self._z(X, H, rows)), self.centroids)
        if self.form == "one-vs-rest":
            return np.column_stack([m._finite_scores(X, H, rows) / self.score_scale[k]
                                    for k, m in enumerate(self.models)])
        # ensemble
        S = np.zeros((rows, K))
        for w, m in zip(self.weights, self.members):
            S += w * _softmax_rows(m._finite_scores(X, H, rows))
        return S


# ε = 2⁻⁵², the constant-model rule's (method.WeightsConstant).
_EPSILON = 2.0 ** -52


def _sum_abs(w):
    """Σ|w_j|, summed in order as greedytl sums it (sum()'s compensated
    sum may differ in the last bits)."""
    total = 0.0
    for v in np.asarray(w, dtype=np.float64).tolist():
        total += abs(v)
    return total


def _linear_selection(wx, wh):
    """The columns of non-zero weight of the weights wx (features) and wh
    (sources), by decreasing |weight|, features first on ties, then by
    index (method.Linear.Selected)."""
    cols = [{"kind": kind, "index": j, "weight": float(v)}
            for kind, w in (("feature", wx), ("source", wh)) for j, v in enumerate(w) if v != 0]
    cols.sort(key=lambda c: -abs(c["weight"]))
    return cols


def _squares(z):
    """The sum of squares of each row of z, column by column (an overflow
    gives +Inf, which _unit_rows handles)."""
    ss = np.zeros(z.shape[0])
    _add_columns(ss, z.shape[1], lambda j, k: z[:, j:k] * z[:, j:k])
    return ss


def _unit_rows(z):
    """z with each row divided by its Euclidean norm (a zero row stays 0),
    in the Go code's order (method.normaliseRow): the squares summed column
    by column, then each element multiplied by 1/‖z‖; a row whose sum of
    squares overflows or falls below the normal range is divided by its
    largest |value| first."""
    if z.shape[1] == 0:
        return z
    ss = _squares(z)
    odd = np.flatnonzero(~(ss < np.inf) | (ss < _MIN_NORMAL))
    if len(odd):
        a = np.abs(z[odd]).max(axis=1)
        odd, a = odd[a > 0], a[a > 0]
        z = z.copy()
        z[odd] = z[odd] / a[:, None]
        ss[odd] = _squares(z[odd])
    inv = np.ones(z.shape[0])
    np.divide(1.0, np.sqrt(ss), out=inv, where=ss > 0)
    return z * inv[:, None]


# The scorer of each binary method's files, by the method's name, as
# greedytl's registry gives each its Decode (method/*.go's register calls),
# in the registry's order; and the form of each native multi-class method's
# files (its DecodeMulti).  A method neither table names is one greedytl
# does not know either (test_parity checks the tables against greedytl
# version --json's lists).
_BINARY_SCORERS = dict(
    [(n, GreedyScorer) for n in ("greedytl", "greedytl-59", "greedytl-sp")]
    + [("greedytl-auto", LinearScorer), ("forward-reg", GreedyScorer)]
    + [(n, LinearScorer) for n in ("no-transfer", "rls-srcfeat", "average-kt", "best-source", "multikt-l2",
                                   "multikt-l1", "dam", "l1-logistic", "elastic-net")]
    + [("dictionary", DictionaryScorer), ("logme-source", LinearScorer), ("stacked-logistic", LinearScorer)])
_MULTI_FORMS = {"greedytl-nway": "ensemble", "multinomial-logistic": "linear", "nearest-mean": "linear",
                "simpleshot": "centroid-cosine", "nearest-neighbour": "nearest-neighbour"}
