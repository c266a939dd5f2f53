package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.perftrack.server.alerts.Receiver;

/**
 * The subscriptions page's webhooks as an admin uses them: add one (its secret shown once), send a test, read the
 * delivery (status, answer code, time) under it; a bad address is refused naming the field; laptop and phone.
 */
class WebhooksPageInBrowserTest extends BrowserTest {

  @Test
  void anAdminAddsAWebhookSendsATestAndReadsItsDeliveryOnTheSubscriptionsPage() throws Exception {
    try (Receiver receiver = Receiver.answering()) {
      String product = unique("chat");
      signIn();
      open("/alerts/subscriptions");
      assertThat(text(By.id("webhooks"))).isEqualTo("Webhooks");
      assertThat(new Select(browser.driver.findElement(By.id("webhook-kind"))).getOptions().stream()
          .map(WebElement::getText)).contains("Slack or Mattermost", "Microsoft Teams (Workflows)", "Matrix room",
          "Signed JSON");

      fill("http://10.0.0.1/hook", "Signed JSON", product);
      awaitText(By.cssSelector(".alert"), "The webhook was not saved");
      assertThat(text(By.cssSelector(".alert"))).contains("url: 10.0.0.1 is a private address");

      fill(receiver.url("/perftrack"), "Signed JSON", product);
      awaitText(By.cssSelector(".note"), "Webhook added: json to http://127.0.0.1:");
      String secret = text(By.id("webhook-secret"));
      assertThat(secret).startsWith("whsec_");
      WebElement hook = webhookOf(product);
      assertThat(hook.getText()).contains("Signed JSON · " + receiver.url("/perftrack"), "active",
          "Product " + product + ", machine any", "No deliveries yet.");

      hook.findElement(By.xpath(".//button[text()='Send a test']")).click();
      awaitText(By.cssSelector(".note"), "A test is on its way");
      await().atMost(Duration.ofSeconds(20)).until(() -> receiver.requests().size() == 1);
      assertThat(receiver.requests().get(0).json().get("event").asString()).isEqualTo("test");
      await().atMost(Duration.ofSeconds(20)).until(() -> {
        open("/alerts/subscriptions");
        return webhookOf(product).getText().contains("delivered");
      });
      assertThat(webhookOf(product).findElement(By.cssSelector(".deliveries tbody tr")).getText())
          .matches("test delivered (answer )?200 \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
      assertThat(browser.driver.getPageSource()).as("the secret was shown once").doesNotContain(secret);

      browser.screenshot("webhooks-laptop", 1366);
      browser.screenshot("webhooks-phone", 390);
      assertThat(browser.overflowAtPhoneSize()).isEmpty();
      assertThat(browser.controlsWithoutVisibleName()).isEmpty();
      assertThat(browser.severeConsoleMessages()).isEmpty();
    }
  }

  private void fill(String url, String kind, String product) {
    open("/alerts/subscriptions");
    browser.driver.findElement(By.id("webhook-url")).sendKeys(url);
    new Select(browser.driver.findElement(By.id("webhook-kind"))).selectByVisibleText(kind);
    browser.driver.findElement(By.id("webhook-product")).sendKeys(product);
    browser.driver.findElement(By.xpath("//button[text()='Add webhook']")).click();
  }

  private static WebElement webhookOf(String product) {
    List<WebElement> all = browser.driver.findElements(By.cssSelector("#webhook-list article.webhook"));
    return all.stream().filter(a -> a.getText().contains(product)).findFirst().orElseThrow();
  }

  private static String text(By by) {
    return browser.driver.findElement(by).getText();
  }
}
