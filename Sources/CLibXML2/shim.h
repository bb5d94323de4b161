// libxml2's push parsers (XML with SAX2, HTML with SAX1) and error reporting: all that
// RelativeViewImport uses of it.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
