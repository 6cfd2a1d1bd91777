package dev.junction.messaging.support;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/** Keeps every log event written during a test, from any thread, for assertions. */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	@Override
	public void beforeEach(ExtensionContext context) {
		this.appender.list.clear();
		this.appender.start();
		root().addAppender(this.appender);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		root().detachAppender(this.appender);
		this.appender.stop();
	}

	/**
	 * The service's ERROR events written so far (the test client's own are not counted),
	 * as {@code logger: message}.
	 */
	public List<String> errors() {
		synchronized (this.appender) {
			return this.appender.list.stream()
				.filter((event) -> event.getLevel() == Level.ERROR)
				.filter((event) -> !event.getLoggerName().startsWith("org.springframework.test."))
				.map((event) -> event.getLoggerName() + ": " + event.getFormattedMessage())
				.toList();
		}
	}

	/** The WARN events written so far, as {@code logger: message}. */
	public List<String> warnings() {
		synchronized (this.appender) {
			return this.appender.list.stream()
				.filter((event) -> event.getLevel() == Level.WARN)
				.map((event) -> event.getLoggerName() + ": " + event.getFormattedMessage())
				.toList();
		}
	}

	private static Logger root() {
		return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

}
