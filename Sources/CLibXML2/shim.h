// libxml2's push parsers (XML with SAX2, HTML with SAX1), error reporting and canonical
// XML: all that RelativeViewImport uses of it; and XPath, for the tests of RelativeViewQuery.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so <libxml/encoding.h> includes ICU's headers, whose
// definitions clash with the copy of ICU inside Foundation when both modules are loaded
// together (symbol-graph extraction fails). Only an encoding handler's ICU converter
// fields depend on it, and RelativeViewImport never touches a handler.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
// Canonical XML (C14N), for the tests' round trips.
#include <libxml/c14n.h>
// XPath, the oracle of the query engine's differential tests.
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
