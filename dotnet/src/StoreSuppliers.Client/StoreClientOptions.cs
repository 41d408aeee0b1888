using System;
using System.Collections.Generic;
using System.Net.Http;

namespace StoreSuppliers;

/// <summary>How a <see cref="StoreClient"/> reaches the service.</summary>
public sealed class StoreClientOptions
{
    /// <summary>The API key, sent as <c>X-API-Key</c>. Keep it on a server.</summary>
    public string? ApiKey { get; set; }

    /// <summary>Where the service runs, for example <c>http://127.0.0.1:3000</c>. Defaults to the <see cref="HttpClient"/>'s BaseAddress.</summary>
    public string? BaseUrl { get; set; }

    /// <summary>Time-out of one attempt (default 60 seconds).</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>Retries of a call that is safe to repeat (default 2).</summary>
    public int MaxRetries { get; set; } = 2;

    /// <summary>The longest wait before a retry, whatever <c>Retry-After</c> asks (default 30 seconds).</summary>
    public TimeSpan MaxRetryDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// An HttpClient to send with, for example one from IHttpClientFactory. The client never disposes it, and
    /// its own Timeout still applies (set it to Timeout.InfiniteTimeSpan to leave time-outs to these options).
    /// </summary>
    public HttpClient? HttpClient { get; set; }

    /// <summary>Headers sent with every request.</summary>
    public IDictionary<string, string> DefaultHeaders { get; } = new Dictionary<string, string>();
}

/// <summary>Options every call takes; each one set overrides the client's.</summary>
public class RequestOptions
{
    /// <summary>Time-out of one attempt.</summary>
    public TimeSpan? Timeout { get; set; }

    /// <summary>Retries of a call that is safe to repeat.</summary>
    public int? MaxRetries { get; set; }

    /// <summary>Extra request headers.</summary>
    public IDictionary<string, string> Headers { get; } = new Dictionary<string, string>();

    /// <summary>
    /// The Idempotency-Key of a create or money action. The client makes one per call (a GUID) and sends the same one
    /// on each of its retries; give your own to keep it across your own retries (a job run again, a restart).
    /// </summary>
    public string? IdempotencyKey { get; set; }
}

/// <summary>Options of submit, retry, pay, cancel and fulfil-manually.</summary>
public sealed class DispatchOptions : RequestOptions
{
    /// <summary>
    /// Sends <c>Prefer: respond-async</c>: the service answers 202 at once with the supplier order as it is
    /// (usually queued) instead of waiting for the dispatch job. Read the order again to follow it.
    /// </summary>
    public bool RespondAsync { get; set; }
}
