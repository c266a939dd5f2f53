package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.security.Users;
import org.perftrack.server.support.Fixtures;
import org.springframework.beans.factory.annotation.Autowired;

/** A user follows "Account" from the menu and changes their password: a wrong current one reads as such first. */
class AccountPageInBrowserTest extends BrowserTest {

  @Autowired
  Users users;

  @Test
  void aUserChangesTheirPasswordOnTheAccountPage() {
    String user = Fixtures.unique("carol");
    users.save(user, "carols-first-password", "USER");
    open("/login");
    browser.driver.findElement(By.id("username")).sendKeys(user);
    browser.driver.findElement(By.id("password")).sendKeys("carols-first-password");
    browser.driver.findElement(By.cssSelector("form button[type=submit]")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.not(ExpectedConditions.urlContains("/login")));

    browser.driver.findElement(By.linkText("Account")).click();
    awaitText(By.tagName("h1"), "Your account");
    change("not-my-password", "carols-second-password");
    awaitText(By.cssSelector(".alert"), "Current password: that is not your password now; nothing was changed.");
    browser.screenshot("account-wrong-current-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat(browser.controlsWithoutVisibleName()).isEmpty();

    change("carols-first-password", "carols-second-password");
    awaitText(By.cssSelector(".note"), "Your password is changed");
    browser.screenshot("account-changed-laptop", 1366);
    assertThat(browser.severeConsoleMessages()).isEmpty();
    browser.driver.findElement(By.xpath("//button[starts-with(normalize-space(.), 'Sign out')]")).click();
  }

  private static void change(String current, String password) {
    browser.driver.findElement(By.id("current")).sendKeys(current);
    browser.driver.findElement(By.id("new-password")).sendKeys(password);
    browser.driver.findElement(By.id("repeat")).sendKeys(password);
    browser.driver.findElement(By.xpath("//button[text()='Change password']")).click();
  }
}
