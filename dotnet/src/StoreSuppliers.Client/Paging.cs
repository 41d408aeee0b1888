using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace StoreSuppliers;

internal static class Paging
{
    /// <summary>
    /// Every item of a cursor-paged list: the same filters each time, the previous nextCursor as cursor, until
    /// hasMore is false. A page is fetched only when the caller has taken every item of the one before.
    /// </summary>
    public static async IAsyncEnumerable<TItem> WalkAsync<TQuery, TPage, TItem>(
        TQuery query,
        Func<TQuery, CancellationToken, Task<TPage>> fetch,
        Func<TQuery, string?, TQuery> withCursor,
        Func<TPage, IEnumerable<TItem>> items,
        Func<TPage, string?> nextCursor,
        Func<TPage, bool> hasMore,
        CancellationToken cancellationToken,
        [EnumeratorCancellation] CancellationToken enumeratorCancellation = default)
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, enumeratorCancellation);
        var token = linked.Token;
        var current = query;
        while (true)
        {
            token.ThrowIfCancellationRequested();
            var page = await fetch(current, token).ConfigureAwait(false);
            foreach (var item in items(page)) yield return item;
            var cursor = nextCursor(page);
            if (!hasMore(page) || string.IsNullOrEmpty(cursor)) yield break;
            current = withCursor(current, cursor);
        }
    }
}
