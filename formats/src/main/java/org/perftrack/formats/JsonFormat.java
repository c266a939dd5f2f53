package org.perftrack.formats;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool's JSON file, parsed whole before its shape is checked (a broken file is named as such first). */
abstract class JsonFormat extends ForeignFormat<JsonNode> {

  JsonFormat(String name, String expected) {
    super(name, expected);
  }

  @Override
  final JsonNode parse(byte[] content, String sourceName) throws FormatException {
    return JsonInput.read(content, sourceName);
  }
}
