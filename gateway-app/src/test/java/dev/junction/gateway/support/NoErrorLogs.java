package dev.junction.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails a test during which anything in this JVM logged at ERROR. ERROR is for faults an
 * operator must look at; a client's mistake, an aborted upload or a failing provider is
 * answered and counted, never an ERROR line that the
 * {@code logback_events_total{level="error"}} alert would fire on. Reads the console
 * (plain text and JSON lines), which every logger writes to, so that it keeps working
 * when a gateway started by the test resets logging.
 */
public final class NoErrorLogs implements BeforeEachCallback, AfterEachCallback {

	private static final Pattern ERROR_LINE = Pattern
		.compile("(^\\S+\\s+|\\]\\s+)ERROR\\s|\"(log\\.)?level\"\\s*:\\s*\"ERROR\"");

	private PrintStream out;

	private PrintStream err;

	private ByteArrayOutputStream captured;

	@Override
	public void beforeEach(ExtensionContext context) {
		this.out = System.out;
		this.err = System.err;
		this.captured = new ByteArrayOutputStream();
		System.setOut(tee(this.out, this.captured));
		System.setErr(tee(this.err, this.captured));
	}

	@Override
	public void afterEach(ExtensionContext context) {
		System.out.flush();
		System.err.flush();
		System.setOut(this.out);
		System.setErr(this.err);
		List<String> errors = errorLines(this.captured.toString(StandardCharsets.UTF_8));
		assertThat(errors).as("lines logged at ERROR during %s", context.getDisplayName()).isEmpty();
	}

	/** The lines of {@code output} written at ERROR level. */
	static List<String> errorLines(String output) {
		return output.lines().filter((line) -> ERROR_LINE.matcher(line).find()).toList();
	}

	private static PrintStream tee(PrintStream original, OutputStream copy) {
		return new PrintStream(new OutputStream() {

			@Override
			public void write(int b) {
				original.write(b);
				synchronized (copy) {
					try {
						copy.write(b);
					}
					catch (java.io.IOException ex) {
						throw new IllegalStateException(ex);
					}
				}
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				original.write(bytes, offset, length);
				synchronized (copy) {
					try {
						copy.write(bytes, offset, length);
					}
					catch (java.io.IOException ex) {
						throw new IllegalStateException(ex);
					}
				}
			}

			@Override
			public void flush() {
				original.flush();
			}

		}, true, StandardCharsets.UTF_8);
	}

}
