package org.perftrack.agent.shell;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A target's output as text. Modern Cygwin writes UTF-8; Cygwin 1.5 writes the Windows ANSI code page
 * (a host name or path with "é" in {@code uname}/{@code mount} output is not UTF-8). So: UTF-8 when the
 * bytes are valid UTF-8, else the fallback charset, never an exception; and CRLF (text-mode mounts)
 * read as LF, so that line matching works the same on every target.
 */
public final class OutputText {

  public static final String UTF_8 = "UTF-8";

  private final String text;
  private final String charset;

  private OutputText(String text, String charset) {
    this.text = text;
    this.charset = charset;
  }

  /** The text, with {@code \r\n} and lone {@code \r} turned into {@code \n}. */
  public String text() {
    return text;
  }

  /** The charset the bytes were read with: {@code UTF-8} or the fallback's name. */
  public String charset() {
    return charset;
  }

  public static OutputText decode(byte[] bytes, Charset fallback) {
    try {
      String utf8 = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
      return new OutputText(normalise(utf8), UTF_8);
    } catch (CharacterCodingException e) {
      // new String(…, charset) replaces what it cannot map instead of throwing
      return new OutputText(normalise(new String(bytes, fallback)), fallback.name());
    }
  }

  public static String normalise(String text) {
    return text.indexOf('\r') < 0 ? text : text.replace("\r\n", "\n").replace('\r', '\n');
  }

  /**
   * The ANSI code page of a Windows host (what Java 8 reports as {@code sun.jnu.encoding}), else
   * windows-1252, the code page of the Western-European Windows installs most lab machines run.
   */
  public static Charset hostCharset() {
    String jnu = System.getProperty("sun.jnu.encoding");
    try {
      if (jnu != null && !jnu.equalsIgnoreCase(UTF_8) && Charset.isSupported(jnu)) {
        return Charset.forName(jnu);
      }
    } catch (IllegalArgumentException e) {
      // an odd property value: use the default below
    }
    return Charset.forName("windows-1252");
  }
}
