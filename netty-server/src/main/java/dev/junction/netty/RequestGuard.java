package dev.junction.netty;

import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

/**
 * Sits right after the HTTP/1.1 codec of one connection and keeps a client's mistakes or
 * stalls from costing anything:
 * <ul>
 * <li>a request the codec refused (request line too long, headers too large, not HTTP) is
 * answered 414, 431 or 400 with a body in the application's shape, told the request's
 * path where it is known ({@link RequestLineStart});</li>
 * <li>a request body that stops arriving for the read timeout (its reader is failed by
 * {@link BodyReadTimeout}, and the application answers 408) has its connection closed
 * after the answer, or after another read timeout without one; so has a connection whose
 * request was answered while its body never ends;</li>
 * <li>an answer that closes the connection while the client is still sending its body (a
 * 413) is followed by a lingering close, as nginx does: the write side is shut down and
 * the rest of the body read and discarded, within bounds, so that the client reads the
 * answer instead of a reset connection.</li>
 * </ul>
 * Every method runs on the connection's event loop.
 */
final class RequestGuard extends ChannelDuplexHandler {

	/** The handler's name in the pipeline. */
	static final String NAME = "junction.requestGuard";

	private final HttpServerLimits limits;

	private final RejectedRequests rejections;

	/** The start of each request line as it arrived. */
	private final RequestLineStart lineStart;

	/** The current request's body has not fully arrived. */
	private boolean reading;

	/** The answer to the current request has been written in full. */
	private boolean answered;

	/** The current request's body stopped arriving. */
	private boolean stalled;

	/**
	 * The response being written is informational (100 Continue): it answers nothing yet.
	 */
	private boolean informational;

	private long lastRead;

	private @Nullable ScheduledFuture<?> timer;

	/** The close that waits while the rest of an unwanted body is discarded. */
	private @Nullable ChannelPromise lingeringClose;

	private long lingerStart;

	private long lingered;

	RequestGuard(HttpServerLimits limits, RejectedRequests rejections, RequestLineStart lineStart) {
		this.limits = limits;
		this.rejections = rejections;
		this.lineStart = lineStart;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.lingeringClose != null) {
			discard(ctx, msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			if (request.decoderResult().isFailure()) {
				reject(ctx, request);
				return;
			}
			this.answered = false;
			this.stalled = false;
			this.reading = !(msg instanceof LastHttpContent);
			if (this.reading) {
				this.lastRead = System.nanoTime();
				schedule(ctx, this.limits.readTimeout().toNanos());
			}
		}
		else if (msg instanceof HttpContent && this.reading) {
			this.lastRead = System.nanoTime();
			if (msg instanceof LastHttpContent) {
				this.reading = false;
				cancelTimer();
			}
		}
		if (msg instanceof LastHttpContent) {
			this.lineStart.nextRequest();
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (msg instanceof HttpResponse response) {
			this.informational = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
		}
		if (msg instanceof LastHttpContent && !this.informational) {
			this.answered = true;
			if (this.reading && this.stalled) {
				ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
				return;
			}
		}
		ctx.write(msg, promise);
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		if (this.lingeringClose == null && this.reading && this.answered && !this.stalled
				&& ctx.channel() instanceof DuplexChannel duplex && ctx.channel().isActive()) {
			linger(ctx, duplex, promise);
			return;
		}
		cancelTimer();
		ctx.close(promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		cancelTimer();
		ChannelPromise waiting = this.lingeringClose;
		this.lingeringClose = null;
		if (waiting != null) {
			ctx.close(waiting);
		}
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		cancelTimer();
	}

	/**
	 * Answers a request the codec could not decode, then closes once the client stops
	 * sending.
	 */
	private void reject(ChannelHandlerContext ctx, HttpRequest request) {
		long start = System.nanoTime();
		Throwable cause = request.decoderResult().cause();
		// Headers too large: the request line was read. Otherwise it is known only as it
		// arrived.
		String path = (cause instanceof TooLongHttpHeaderException) ? pathOf(request.uri()) : this.lineStart.path();
		ReferenceCountUtil.release(request);
		int status;
		String detail;
		if (cause instanceof TooLongHttpLineException) {
			status = 414;
			detail = "The request line is too long: shorten the URL.";
		}
		else if (cause instanceof TooLongHttpHeaderException) {
			status = 431;
			detail = "The request headers are too large.";
		}
		else {
			status = 400;
			detail = "The request is not valid HTTP/1.1.";
		}
		RejectedRequests.Answer answer = this.rejections.answer(status, detail, path, System.nanoTime() - start);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(answer.body()));
		answer.headers().forEach(response.headers()::set);
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, answer.contentType())
			.setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length)
			.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		// The codec discards whatever else the client sends; wait for it to stop before
		// closing.
		this.reading = true;
		this.answered = true;
		this.stalled = false;
		this.informational = false;
		this.lastRead = System.nanoTime();
		ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
	}

	private static String pathOf(String uri) {
		int end = uri.length();
		for (char delimiter : new char[] { '?', '#' }) {
			int at = uri.indexOf(delimiter);
			end = (at >= 0) ? Math.min(end, at) : end;
		}
		return uri.substring(0, end);
	}

	/**
	 * Shuts the write side down and reads on, discarding, until the body ends or a bound
	 * is reached.
	 */
	private void linger(ChannelHandlerContext ctx, DuplexChannel channel, ChannelPromise promise) {
		this.lingeringClose = promise;
		this.lingerStart = System.nanoTime();
		this.lingered = 0;
		channel.shutdownOutput();
		ctx.channel().config().setAutoRead(true);
		ctx.read();
		schedule(ctx, Math.min(this.limits.readTimeout().toNanos(), this.limits.lingerTime().toNanos()));
	}

	private void discard(ChannelHandlerContext ctx, Object msg) {
		if (msg instanceof ByteBufHolder holder) {
			this.lingered += holder.content().readableBytes();
		}
		else if (msg instanceof ByteBuf buffer) {
			this.lingered += buffer.readableBytes();
		}
		this.lastRead = System.nanoTime();
		boolean last = msg instanceof LastHttpContent;
		ReferenceCountUtil.release(msg);
		if (last || this.lingered > this.limits.lingerBytes()) {
			stopLingering(ctx);
		}
	}

	private void stopLingering(ChannelHandlerContext ctx) {
		ChannelPromise waiting = this.lingeringClose;
		this.lingeringClose = null;
		this.reading = false;
		cancelTimer();
		if (waiting != null) {
			ctx.close(waiting);
		}
	}

	/**
	 * Checks the connection's deadlines after {@code delayNanos}, and again until they
	 * are settled.
	 */
	private void schedule(ChannelHandlerContext ctx, long delayNanos) {
		cancelTimer();
		this.timer = ctx.executor().schedule(() -> check(ctx), Math.max(delayNanos, 1), TimeUnit.NANOSECONDS);
	}

	private void check(ChannelHandlerContext ctx) {
		this.timer = null;
		long now = System.nanoTime();
		long idle = now - this.lastRead;
		long readTimeout = this.limits.readTimeout().toNanos();
		if (this.lingeringClose != null) {
			long lingering = now - this.lingerStart;
			long lingerTime = this.limits.lingerTime().toNanos();
			if (idle >= readTimeout || lingering >= lingerTime) {
				stopLingering(ctx);
			}
			else {
				schedule(ctx, Math.min(readTimeout - idle, lingerTime - lingering));
			}
			return;
		}
		if (!this.reading || !ctx.channel().isActive()) {
			return;
		}
		if (idle < readTimeout) {
			schedule(ctx, readTimeout - idle);
			return;
		}
		if (this.stalled || this.answered) {
			// Answered, or given a read timeout's grace to answer (408): nothing more is
			// owed.
			ctx.close();
			return;
		}
		this.stalled = true;
		this.lastRead = now;
		schedule(ctx, readTimeout);
	}

	private void cancelTimer() {
		ScheduledFuture<?> scheduled = this.timer;
		this.timer = null;
		if (scheduled != null) {
			scheduled.cancel(false);
		}
	}

}
