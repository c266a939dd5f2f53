package org.perftrack.server.alerts;

import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.perftrack.server.support.IntegrationTest;

/**
 * A real SMTP server (GreenMail) for the alert tests (and the mail on a phone in Chromium), with helpers to read what
 * arrived. A class of the shared context reads its mail with
 * {@code @RegisterExtension static final Mailbox mailbox = Mailbox.forTheSharedContext();}: started before the class's
 * first test and stopped after its last, on the port the context sends to.
 */
public final class Mailbox implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

  private final GreenMail greenMail;

  Mailbox(int port) {
    greenMail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
  }

  /** The shared context's SMTP server ({@link IntegrationTest#MAIL_PORT}) for one test class, as an extension. */
  public static Mailbox forTheSharedContext() {
    return new Mailbox(IntegrationTest.MAIL_PORT);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  public static Mailbox started(int port) {
    Mailbox m = new Mailbox(port);
    m.start();
    return m;
  }

  void start() {
    greenMail.start();
  }

  @Override
  public void close() {
    greenMail.stop();
  }

  /** Every message delivered to {@code address} (one SMTP delivery per recipient). */
  List<MimeMessage> to(String address) {
    return Arrays.stream(greenMail.getReceivedMessages()).filter(m -> isTo(m, address)).toList();
  }

  public List<MimeMessage> awaitMessages(String address, int count, Duration timeout) {
    await().atMost(timeout).pollInterval(Duration.ofMillis(20)).until(() -> to(address).size() >= count);
    return to(address);
  }

  /** The messages to {@code address} with this subject, once at least one has arrived. */
  List<MimeMessage> awaitSubject(String address, String subject, Duration timeout) {
    await().atMost(timeout).pollInterval(Duration.ofMillis(20))
        .until(() -> to(address).stream().anyMatch(m -> subject(m).equals(subject)));
    return to(address).stream().filter(m -> subject(m).equals(subject)).toList();
  }

  /** Blocks until the server holds at least {@code total} messages in all; notified, not polled. */
  boolean waitForTotal(int total, long timeoutMillis) {
    return greenMail.waitForIncomingEmail(timeoutMillis, total);
  }

  int total() {
    return greenMail.getReceivedMessages().length;
  }

  static boolean isTo(MimeMessage m, String address) {
    try {
      var to = m.getRecipients(Message.RecipientType.TO);
      return to != null && Arrays.stream(to).anyMatch(a -> a.toString().equalsIgnoreCase(address));
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String part(MimeMessage m, String mimeType) {
    try {
      return find(m, mimeType);
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String header(MimeMessage m, String name) {
    try {
      return m.getHeader(name, ",");
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String subject(MimeMessage m) {
    try {
      return m.getSubject();
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String find(Part p, String mimeType) throws MessagingException, IOException {
    if (p.isMimeType(mimeType) && !Part.ATTACHMENT.equalsIgnoreCase(p.getDisposition())) {
      return (String) p.getContent();
    }
    if (p.isMimeType("multipart/*")) {
      Multipart mp = (Multipart) p.getContent();
      for (int i = 0; i < mp.getCount(); i++) {
        BodyPart child = mp.getBodyPart(i);
        String found = find(child, mimeType);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
