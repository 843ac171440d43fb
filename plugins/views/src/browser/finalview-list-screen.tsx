import { FinalviewListScreen } from './finalview-screens';

export default FinalviewListScreen;
