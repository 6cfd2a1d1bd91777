package dev.junction.gateway.rpc;

/**
 * A call refused by the RPC layer itself; carries its {@link RpcError}. No stack trace is
 * filled in.
 */
public final class RpcException extends RuntimeException {

	private final RpcError error;

	public RpcException(RpcError error) {
		super(error.message(), null, false, false);
		this.error = error;
	}

	public RpcError error() {
		return this.error;
	}

}
