package dev.junction.gateway.support;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.Mockito.mock;

/**
 * The ERROR-line check recognises every console format the services write, and nothing
 * else.
 */
class NoErrorLogsTests {

	@Test
	void findsErrorLinesInEveryConsoleFormat() {
		String output = String.join("\n",
				"2026-01-01T10:00:00.000Z ERROR 4242 --- [gateway-app] [ctor-http-nio-2] d.j.g.e.OpenAiErrorWebExceptionHandler : boom",
				"10:00:00.000 [main] ERROR dev.junction.X -- boom",
				"{\"@timestamp\":\"2026-01-01T10:00:00Z\",\"log\":{\"level\":\"ERROR\",\"logger\":\"x\"},\"message\":\"boom\"}",
				"{\"@timestamp\":\"2026-01-01T10:00:00Z\",\"log.level\":\"ERROR\",\"message\":\"boom\"}",
				"2026-01-01T10:00:00.000Z  WARN 4242 --- [gateway-app] [main] x : an ERROR in the message is not an error",
				"2026-01-01T10:00:00.000Z  INFO 4242 --- [gateway-app] [main] x : ERROR",
				"\tat dev.junction.X.y(X.java:1)");
		assertThat(NoErrorLogs.errorLines(output)).hasSize(4).allMatch((line) -> line.contains("boom"));
	}

	@Test
	void failsATestThatLoggedAnError() {
		NoErrorLogs guard = new NoErrorLogs();
		ExtensionContext context = mock(ExtensionContext.class);
		guard.beforeEach(context);
		LoggerFactory.getLogger(NoErrorLogsTests.class).error("a fault an operator must see");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> guard.afterEach(context))
			.withMessageContaining("a fault an operator must see");
		guard.beforeEach(context);
		LoggerFactory.getLogger(NoErrorLogsTests.class).warn("a client's mistake");
		guard.afterEach(context);
	}

}
