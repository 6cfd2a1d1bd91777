package dev.junction.gateway.pipeline;

import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.chat.ChatRequest;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import org.jspecify.annotations.Nullable;

/**
 * One client request on its way through the pipeline: what was asked, where it is being
 * served, and how long the upstream took, so the gateway's own time can be told apart.
 */
public final class ChatExchange {

	/** The web exchange attribute under which an HTTP entry point keeps its chat exchange. */
	public static final String ATTRIBUTE = ChatExchange.class.getName();

	private final ChatRequest request;

	private final String client;

	private final String entryPoint;

	private final long startNanos;

	private final String requestId;

	private final AtomicLong upstreamNanos = new AtomicLong();

	private volatile long upstreamSince;

	private volatile @Nullable Route route;

	private volatile @Nullable Target target;

	private volatile KeyPool.@Nullable PooledKey key;

	private volatile @Nullable RateLimitStatus rateLimit;

	private volatile @Nullable String cacheStatus;

	private volatile boolean cacheBypass;

	private volatile boolean cacheSampled;

	/**
	 * @param request the parsed request
	 * @param client who is asking: the gateway key's id, or the client address
	 * @param entryPoint the API it came through (a metric tag: chat, rpc, trpc)
	 * @param startNanos {@link System#nanoTime()} when the request arrived
	 * @param requestId the request's id, sent upstream and written in its log lines
	 */
	public ChatExchange(ChatRequest request, String client, String entryPoint, long startNanos, String requestId) {
		this.request = request;
		this.requestId = requestId;
		this.client = client;
		this.entryPoint = entryPoint;
		this.startNanos = startNanos;
	}

	public ChatRequest request() {
		return this.request;
	}

	public String requestId() {
		return this.requestId;
	}

	public String client() {
		return this.client;
	}

	public String entryPoint() {
		return this.entryPoint;
	}

	public long startNanos() {
		return this.startNanos;
	}

	public @Nullable Route route() {
		return this.route;
	}

	public void route(Route route) {
		this.route = route;
	}

	/** The target currently being tried. */
	public @Nullable Target target() {
		return this.target;
	}

	public void target(Target target) {
		this.target = target;
	}

	/** The upstream key chosen for the current attempt, if the provider uses keys. */
	public KeyPool.@Nullable PooledKey key() {
		return this.key;
	}

	public void key(KeyPool.@Nullable PooledKey key) {
		this.key = key;
	}

	/** The client's rate-limit budget after this request, when limits are on. */
	public @Nullable RateLimitStatus rateLimit() {
		return this.rateLimit;
	}

	public void rateLimit(RateLimitStatus status) {
		this.rateLimit = status;
	}

	/** HIT or MISS when the response cache was consulted. */
	public @Nullable String cacheStatus() {
		return this.cacheStatus;
	}

	public void cacheStatus(String status) {
		this.cacheStatus = status;
	}

	/** Whether the client asked not to be served from the cache ({@code Cache-Control: no-cache}). */
	public boolean cacheBypass() {
		return this.cacheBypass;
	}

	public void cacheBypass(boolean bypass) {
		this.cacheBypass = bypass;
	}

	/** Whether the client asked for its answer to be cached even though the request is sampled. */
	public boolean cacheSampled() {
		return this.cacheSampled;
	}

	public void cacheSampled(boolean cacheSampled) {
		this.cacheSampled = cacheSampled;
	}

	/**
	 * A client's budget as the {@code X-RateLimit-*} headers report it.
	 *
	 * @param limit requests allowed per window
	 * @param remaining requests left in the window
	 * @param resetSeconds seconds until the budget is full again
	 */
	public record RateLimitStatus(long limit, long remaining, long resetSeconds) {
	}

	/** Marks the start of an upstream call; returns its start time for {@link #endUpstream}. */
	public long beginUpstream() {
		long now = System.nanoTime();
		this.upstreamSince = now;
		return now;
	}

	/** Marks the end of the upstream call that began at {@code start}. */
	public void endUpstream(long start) {
		this.upstreamNanos.addAndGet(System.nanoTime() - start);
		this.upstreamSince = 0;
	}

	/** Time spent waiting for upstreams so far, including a call still under way. */
	public long upstreamNanos() {
		long since = this.upstreamSince;
		return this.upstreamNanos.get() + ((since != 0) ? System.nanoTime() - since : 0);
	}

	/** Time spent in the gateway itself so far: elapsed time less upstream waits. */
	public long gatewayNanos() {
		return Math.max(0, System.nanoTime() - this.startNanos - upstreamNanos());
	}

}
