package org.perftrack.server.alerts;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.perftrack.server.changes.ChangeLinks;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/**
 * Turns an outbox row into a MIME message: HTML and plain text from the Thymeleaf templates in
 * {@code templates/mail/}, the unsubscribe headers of RFC 2369/8058, and the row's own Message-ID so
 * that a retried mail is recognisably the same mail.
 */
@Component
class MailComposer {

  private static final Session SESSION = Session.getInstance(new Properties());

  private final TemplateEngine engine = engine();
  private final AlertsProperties props;
  private final SiteProperties site;
  private final ChangeLinks changes;
  private final java.util.List<ProfileLink> profiles;
  private final java.util.List<BugLink> bugs;

  MailComposer(AlertsProperties props, SiteProperties site, ChangeLinks changes, java.util.List<ProfileLink> profiles,
      java.util.List<BugLink> bugs) {
    this.bugs = bugs;
    this.props = props;
    this.site = site;
    this.changes = changes;
    this.profiles = profiles;
  }

  MimeMessage compose(Outbox.Claimed row) throws MessagingException {
    MailPayload payload = row.mail();
    MailView view = MailView.of(payload, site.base(), r -> changes.of(r).range(),
        r -> profiles.stream().map(p -> p.path(r)).filter(java.util.Objects::nonNull).findFirst().orElse(null),
        r -> bugs.stream().flatMap(b -> b.urls(r).stream()).distinct().toList());
    Context ctx = new Context();
    ctx.setVariable("mail", view);
    String template = "lab".equals(payload.kind()) ? "mail/notice" : "mail/alert";
    String text = engine.process(template + ".txt", ctx);
    String html = engine.process(template + ".html", ctx);

    MimeMessage message = new FixedIdMimeMessage(SESSION, row.messageId());
    MimeMessageHelper helper = new MimeMessageHelper(message, true, StandardCharsets.UTF_8.name());
    helper.setFrom(props.from());
    helper.setTo(row.recipient());
    helper.setSubject(row.subject());
    helper.setText(text, html);
    message.setHeader("List-Unsubscribe", "<" + view.unsubscribeUrl() + ">");
    message.setHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
    message.setHeader("Auto-Submitted", "auto-generated");
    message.setHeader("X-Perftrack-Outbox-Id", Long.toString(row.id()));
    return message;
  }

  private static TemplateEngine engine() {
    SpringTemplateEngine engine = new SpringTemplateEngine();
    engine.addTemplateResolver(resolver("*.html", TemplateMode.HTML, 1));
    engine.addTemplateResolver(resolver("*.txt", TemplateMode.TEXT, 2));
    return engine;
  }

  private static ClassLoaderTemplateResolver resolver(String pattern, TemplateMode mode, int order) {
    ClassLoaderTemplateResolver r = new ClassLoaderTemplateResolver();
    r.setPrefix("templates/");
    r.setResolvablePatterns(java.util.Set.of("mail/" + pattern));
    r.setTemplateMode(mode);
    r.setCharacterEncoding("UTF-8");
    r.setCacheable(true);
    r.setOrder(order);
    r.setCheckExistence(true);
    return r;
  }

  /** Keeps the Message-ID chosen when the mail was queued (JavaMail would make a new one on every send). */
  private static final class FixedIdMimeMessage extends MimeMessage {
    private final String messageId;

    FixedIdMimeMessage(Session session, String messageId) {
      super(session);
      this.messageId = messageId;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
      setHeader("Message-ID", messageId);
    }
  }
}
