package dev.junction.gateway.provider.openai;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;

/**
 * Splits a byte stream into the payloads of SSE {@code data:} lines. Network buffers cut
 * lines (and UTF-8 characters) anywhere, so bytes are kept until a line is complete and
 * only whole lines are decoded. One instance per stream; not thread-safe (a stream
 * delivers its buffers one at a time).
 */
public final class SseLineDecoder {

	private static final int MAX_LINE = 4 * 1024 * 1024;

	private final ByteArrayOutputStream partial = new ByteArrayOutputStream(256);

	/** The {@code data:} payloads completed by this buffer, in order. */
	public List<String> decode(ByteBuf buffer) {
		List<String> data = new ArrayList<>(2);
		int index = buffer.readerIndex();
		int end = buffer.writerIndex();
		while (index < end) {
			int newline = buffer.indexOf(index, end, (byte) '\n');
			if (newline < 0) {
				append(buffer, index, end - index);
				break;
			}
			String line;
			if (this.partial.size() > 0) {
				append(buffer, index, newline - index);
				line = this.partial.toString(StandardCharsets.UTF_8);
				this.partial.reset();
			}
			else {
				line = buffer.toString(index, newline - index, StandardCharsets.UTF_8);
			}
			index = newline + 1;
			String payload = dataOf(line);
			if (payload != null) {
				data.add(payload);
			}
		}
		return data;
	}

	private void append(ByteBuf buffer, int index, int length) {
		if (this.partial.size() + length > MAX_LINE) {
			throw new IllegalStateException("an SSE line from the upstream exceeds " + MAX_LINE + " bytes");
		}
		byte[] bytes = new byte[length];
		buffer.getBytes(index, bytes);
		this.partial.writeBytes(bytes);
	}

	private static String dataOf(String line) {
		if (line.endsWith("\r")) {
			line = line.substring(0, line.length() - 1);
		}
		if (!line.startsWith("data:")) {
			return null;
		}
		return line.startsWith("data: ") ? line.substring(6) : line.substring(5);
	}

}
