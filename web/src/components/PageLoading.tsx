import { Spin } from 'antd';

/**
 * Shown while a page's script loads. Padding, not margin: a margin at the top of the page would
 * collapse through the body and move it when the page replaces this (a layout shift).
 */
export function PageLoading() {
  return (
    <div style={{ padding: '80px 0', textAlign: 'center' }}>
      <Spin />
    </div>
  );
}
