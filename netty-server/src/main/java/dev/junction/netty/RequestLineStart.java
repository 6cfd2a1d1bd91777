package dev.junction.netty;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the start of each request line as it arrives, before the HTTP codec reads it, so
 * that a request refused because its line is too long (414) can still be answered in the
 * shape of the API its path belongs to. Copies at most {@value #MAX} bytes per request,
 * and only the bytes up to the end of the path. Every method runs on the connection's
 * event loop.
 */
final class RequestLineStart extends ChannelInboundHandlerAdapter {

	/** The handler's name in the pipeline. */
	static final String NAME = "junction.requestLineStart";

	/** The most bytes of a request line kept. */
	static final int MAX = 256;

	private final byte[] kept = new byte[MAX];

	private int length;

	private boolean capturing = true;

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.capturing && msg instanceof ByteBuf buffer) {
			keep(buffer);
		}
		ctx.fireChannelRead(msg);
	}

	/** The next bytes begin a new request. */
	void nextRequest() {
		this.length = 0;
		this.capturing = true;
	}

	/**
	 * The path of the request line kept (possibly cut at {@value #MAX} bytes), or null
	 * when what was kept does not start like a request line.
	 */
	@Nullable String path() {
		String line = new String(this.kept, 0, this.length, StandardCharsets.ISO_8859_1).stripLeading();
		int space = line.indexOf(' ');
		if (space < 1 || !line.substring(0, space).chars().allMatch((c) -> c >= 'A' && c <= 'Z')
				|| space + 1 >= line.length() || line.charAt(space + 1) != '/') {
			return null;
		}
		int end = space + 1;
		while (end < line.length() && !isEndOfPath(line.charAt(end))) {
			end++;
		}
		return line.substring(space + 1, end);
	}

	private void keep(ByteBuf buffer) {
		int index = buffer.readerIndex();
		int end = buffer.writerIndex();
		int spaces = 0;
		for (int i = 0; i < this.length; i++) {
			spaces += (this.kept[i] == ' ') ? 1 : 0;
		}
		while (index < end && this.length < MAX) {
			byte next = buffer.getByte(index++);
			if (this.length == 0 && (next == '\r' || next == '\n')) {
				continue;
			}
			this.kept[this.length++] = next;
			if ((next == ' ' && ++spaces == 2) || (spaces == 1 && next == '?') || next == '\n') {
				this.capturing = false;
				return;
			}
		}
		if (this.length == MAX) {
			this.capturing = false;
		}
	}

	private static boolean isEndOfPath(char c) {
		return c == ' ' || c == '?' || c == '#' || c == '\r' || c == '\n';
	}

}
