package dev.junction.messaging.common;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.messaging.ratelimit.RateLimitProperties;
import dev.junction.messaging.seed.SeedProperties;
import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service's settings under their former names still work for this release, with one
 * warning at start-up naming the keys to rename.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = { "junction.messaging.max-body-size=2KB", "junction.messaging.rate-limit.period=2m",
		"seed.days=7" })
class RenamedMessagingPropertiesIntegrationTests extends IntegrationTestSupport {

	@Autowired
	MessagingProperties messaging;

	@Autowired
	RateLimitProperties rateLimit;

	@Autowired
	SeedProperties seed;

	@Test
	void readsTheFormerNamesAndWarnsOnceAtStart(CapturedOutput output) {
		assertThat(this.messaging.http().maxBodySize()).isEqualTo(DataSize.ofKilobytes(2));
		assertThat(this.rateLimit.window()).isEqualTo(Duration.ofMinutes(2));
		assertThat(this.seed.days()).isEqualTo(7);
		this.admin.post()
			.uri("/instances")
			.bodyValue(Map.of("name", "x".repeat(3000), "channel", "sms"))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.CONTENT_TOO_LARGE)
			.expectBody(Void.class);
		List<String> warnings = output.getOut()
			.lines()
			.filter((line) -> line.contains("Renamed settings, read under their former names"))
			.toList();
		assertThat(warnings).singleElement()
			.asString()
			.contains(" WARN ")
			.contains("junction.messaging.max-body-size -> junction.messaging.http.max-body-size")
			.contains("junction.messaging.rate-limit.period -> junction.messaging.rate-limit.window")
			.contains("seed.days -> junction.messaging.seed.days");
	}

}
